#include "driver/Compiler.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "driver/Backends.h"
#include "driver/BuildIdentity.h"
#include "driver/CompileCache.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "runtime/SpeculatedExecutable.h"
#include "runtime/devices/Devices.h"
#include "transforms/Pass.h"
#include "transforms/SpecializeDims.h"
#include "transforms/SpeculateBroadcasts.h"

namespace xs {
namespace {

CodegenOptions codegenOptionsOf(const CompileOptions &options) {
  CodegenOptions codegen;
  codegen.cpu = options.cpu;
  codegen.features = options.features;
  codegen.threads = options.threads;
  codegen.blockElements = options.blockElements;
  codegen.flushDenormals = options.flushDenormals;
  codegen.streamingStoreBytes = options.streamingStoreBytes;
  codegen.amdgpuBpermute = options.amdgpuBpermute;
  return codegen;
}

/// options.device, parsed and its backend resolved: once per compile, so
/// that a present GPU's limits are queried once for planning and code.
struct ResolvedDevice {
  DeviceSpec device;
  std::unique_ptr<BackendTarget> backend;
};

absl::StatusOr<ResolvedDevice> resolveDevice(const CompileOptions &options) {
  ResolvedDevice resolved;
  XS_ASSIGN_OR_RETURN(resolved.device, parseDeviceName(options.device));
  XS_ASSIGN_OR_RETURN(resolved.backend,
                      resolveBackendTarget(resolved.device, codegenOptionsOf(options)));
  return resolved;
}

// Everything that determines the generated code and where it is loaded.
constexpr int64_t kLiteralsInCacheKeys = 64;

/// "B=8,S=128", sorted.
std::string specializationText(const CompileOptions &options) {
  std::vector<std::string> items;
  for (const auto &[symbol, value] : options.specialize)
    items.push_back(absl::StrCat(symbol, "=", value));
  std::sort(items.begin(), items.end());
  return absl::StrJoin(items, ",");
}

/// The ops' origins in an imported model (Location::origin): the plan's
/// reports and errors name them, so a graph imported with other names is
/// another entry.
std::string originsText(const Function &function) {
  std::string text;
  for (const auto &op : function.ops())
    if (op->loc().origin)
      absl::StrAppend(&text, op->result()->name(), "<-", *op->loc().origin, "\n");
  return text;
}

std::string cacheKeyText(const Function &function, const CompileOptions &options,
                         const BackendTarget &backend) {
  return absl::StrCat(
      compilerIdentity(), "\ndevice=", options.device, "\ntarget=", backend.identity(),
      "\nfusion=", options.fusion ? 1 : 0, "\ndata_checks=", options.dataChecks ? 1 : 0,
      "\nthreads=", options.threads, "\nflush_denormals=", options.flushDenormals ? 1 : 0,
      "\nsync_launches=", options.syncLaunches ? 1 : 0, "\nblock_elements=", options.blockElements,
      "\nstreaming_store_bytes=", options.streamingStoreBytes,
      "\namdgpu_bpermute=", options.amdgpuBpermute ? 1 : 0, "\ncpu=", options.cpu,
      "\nfeatures=", options.features, "\nspecialize=", specializationText(options), "\n",
      // Weights enter the key as their digests: printing them would cost
      // seconds for a whole model.
      printFunction(function, PrintOptions{.elideLiteralsAbove = kLiteralsInCacheKeys}),
      originsText(function));
}

// Process-wide: every executable compiled in this process lives as long as
// the process, so the cache and the devices are never destroyed (no
// destruction-order hazards with TBB's or LLVM's globals at exit).
CompileCache &compileCache() {
  static CompileCache *cache = new CompileCache();
  return *cache;
}

PlanOptions planOptionsOf(const CompileOptions &options) {
  PlanOptions plan;
  plan.fusion = options.fusion;
  plan.dataChecks = options.dataChecks;
  return plan;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A function whose dims meet in broadcasts stands for its first speculated
/// variant (all dims equal) where one plan is shown: --explain, --emit.
/// nullptr: `function` has no broadcast fact and stands for itself.
absl::StatusOr<std::unique_ptr<Module>> firstVariant(const Function &function) {
  XS_ASSIGN_OR_RETURN(std::vector<BroadcastVariant> variants, broadcastVariants(function, 1));
  if (variants.empty())
    return nullptr;
  return speculatedFunction(function, variants.front());
}

void reportStage(const CompileOptions &options, std::string_view stage) {
  if (options.progress)
    options.progress(stage);
}

/// "generating code for 3 kernels".
std::string codeGenerationStage(const ProgramPlan &plan, std::string_view what) {
  size_t kernels = plan.kernels.size();
  return strCat("generating ", what, " for ", kernels, kernels == 1 ? " kernel" : " kernels");
}

/// Compiles `function` (without broadcast facts) with `backend`, timing
/// the stages into `stages`.
absl::StatusOr<CompiledProgram> compileOneProgram(const Function &function,
                                                  const CompileOptions &options,
                                                  const BackendTarget &backend,
                                                  CompileInfo &stages) {
  auto start = std::chrono::steady_clock::now();
  reportStage(options, "planning");
  XS_ASSIGN_OR_RETURN(ProgramPlan plan,
                      planProgram(function, backend.description(), planOptionsOf(options)));
  stages.planSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();
  reportStage(options, codeGenerationStage(plan, backend.codeName()));
  XS_ASSIGN_OR_RETURN(CompiledProgram program, backend.generate(plan));
  stages.llvmSeconds = secondsSince(start);
  return program;
}

/// Compiles `function` for options.device: specialized first where asked,
/// then one program, or one per speculated broadcast variant.
absl::StatusOr<CompiledProgram> compileStages(const Function &original,
                                              const CompileOptions &options,
                                              const BackendTarget &backend, CompileInfo &stages) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Module> specialized;
  if (!options.specialize.empty()) {
    reportStage(options, "specializing dims");
    XS_ASSIGN_OR_RETURN(specialized, specializeDims(original, options.specialize));
    XS_RETURN_IF_ERROR(runPipeline(*specialized, defaultPipeline(), PipelineOptions()));
  }
  const Function &function = specialized ? *specialized->functions().front() : original;
  XS_ASSIGN_OR_RETURN(std::vector<BroadcastVariant> variants, broadcastVariants(function));
  if (variants.empty()) {
    XS_ASSIGN_OR_RETURN(CompiledProgram program,
                        compileOneProgram(function, options, backend, stages));
    // Specializing counts as planning.
    stages.planSeconds = secondsSince(start) - stages.llvmSeconds;
    return program;
  }
  // Variants compile side by side (a small function's one kernel would
  // leave every core but one idle), each as any function does, on threads
  // that report no stages of their own.
  reportStage(options,
              strCat("planning and generating code for ", variants.size(), " broadcast variants"));
  CompileOptions quiet = options;
  quiet.progress = nullptr;
  std::vector<absl::StatusOr<CompiledProgram>> compiled(variants.size(), CompiledProgram());
  std::vector<CompileInfo> variantStages(variants.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t v = next++; v < variants.size(); v = next++) {
      absl::StatusOr<std::unique_ptr<Module>> module = speculatedFunction(function, variants[v]);
      compiled[v] = module.ok() ? compileOneProgram(*(*module)->functions().front(), quiet, backend,
                                                    variantStages[v])
                                : absl::StatusOr<CompiledProgram>(module.status());
    }
  };
  size_t workers =
      std::min<size_t>(variants.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  CompiledProgram program;
  program.host = speculationSignature(function, variants);
  double llvmSeconds = 0;
  for (size_t v = 0; v < variants.size(); ++v) {
    if (!compiled[v].ok())
      return compiled[v].status();
    llvmSeconds += variantStages[v].llvmSeconds;
    program.objectFormat = compiled[v]->objectFormat;
    program.speculations.push_back({variants[v].assumptions, *std::move(compiled[v])});
  }
  // Wall-clock stages: LLVM's share of the variants' own times.
  double total = secondsSince(start), sum = 0;
  for (const CompileInfo &s : variantStages)
    sum += s.planSeconds + s.llvmSeconds;
  stages.llvmSeconds = sum > 0 ? total * llvmSeconds / sum : 0;
  stages.planSeconds = total - stages.llvmSeconds;
  return program;
}

ProgramFileHeader headerOf(const Function &function, const CompileOptions &options,
                           const ResolvedDevice &resolved) {
  ProgramFileHeader header;
  header.kind = "cache";
  header.producer = compilerIdentity();
  header.device = resolved.device.name;
  header.flushDenormals = options.flushDenormals;
  if (std::optional<HostCpuName> cpu = resolved.backend->hostCpu()) {
    header.cpu = cpu->cpu;
    header.features = cpu->features;
  }
  header.key = cacheKeyText(function, options, *resolved.backend);
  return header;
}

LoadOptions loadOptionsOf(const CompileOptions &options) {
  LoadOptions load;
  load.device = options.device;
  load.threads = options.threads;
  load.flushDenormals = options.flushDenormals;
  load.syncLaunches = options.syncLaunches;
  return load;
}

/// The in-memory compile cache's miss: the persistent cache's entry, or a
/// compile (stored there for the next process).
absl::StatusOr<std::shared_ptr<Executable>>
compileOrLoad(const Function &function, const CompileOptions &options,
              const ResolvedDevice &resolved, const std::string &keyText, CompileInfo &stages) {
  const DiskCacheOptions &disk = options.diskCache;
  bool persistent = options.useCache && !disk.directory.empty();
  if (persistent) {
    auto start = std::chrono::steady_clock::now();
    std::string warning;
    if (std::optional<ProgramFile> file = loadDiskCacheEntry(disk, keyText, &warning)) {
      absl::StatusOr<std::shared_ptr<Executable>> loaded =
          loadCompiledProgram(std::move(file->program), resolved.device, loadOptionsOf(options));
      if (loaded.ok()) {
        countCompileEvent(CompileEvent::DiskLoad);
        stages.source = ExecutableSource::Disk;
        stages.loadSeconds = secondsSince(start);
        return loaded;
      }
      warning = strCat("compile cache: ", diskCacheEntryPath(disk.directory, keyText),
                       " does not load (", loaded.status().message(), "); compiling instead");
    }
    if (!warning.empty())
      stages.warnings.push_back(std::move(warning));
  }
  countCompileEvent(CompileEvent::Compilation);
  XS_ASSIGN_OR_RETURN(CompiledProgram program,
                      compileStages(function, options, *resolved.backend, stages));
  if (persistent) {
    ProgramFile file{headerOf(function, options, resolved), program};
    file.header.key = keyText;
    if (absl::Status stored = storeDiskCacheEntry(disk, file); !stored.ok())
      stages.warnings.push_back(std::string(stored.message()));
  }
  auto start = std::chrono::steady_clock::now();
  reportStage(options, "loading");
  absl::StatusOr<std::shared_ptr<Executable>> loaded =
      loadCompiledProgram(std::move(program), resolved.device, loadOptionsOf(options));
  stages.loadSeconds = secondsSince(start);
  return loaded;
}

/// The plans of `function` for `backend` (its first speculated variant's
/// where it has broadcast facts), specialized first where asked.
absl::StatusOr<ProgramPlan> planWith(const Function &function, const CompileOptions &options,
                                     const BackendTarget &backend) {
  // Specializing first decides the broadcast relations it gives values to,
  // as compileStages does.
  if (!options.specialize.empty()) {
    XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> specialized,
                        specializeDims(function, options.specialize));
    XS_RETURN_IF_ERROR(runPipeline(*specialized, defaultPipeline(), PipelineOptions()));
    CompileOptions symbolic = options;
    symbolic.specialize.clear();
    return planWith(*specialized->functions().front(), symbolic, backend);
  }
  XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> variant, firstVariant(function));
  if (variant)
    return planWith(*variant->functions().front(), options, backend);
  return planProgram(function, backend.description(), planOptionsOf(options));
}

/// A compile that skips the caches, for program files.
absl::StatusOr<CompiledProgram> compileUncached(const Function &function,
                                                const CompileOptions &options,
                                                const ResolvedDevice &resolved,
                                                CompileInfo *stages) {
  CompileInfo local;
  countCompileEvent(CompileEvent::Compilation);
  return compileStages(function, options, *resolved.backend, stages ? *stages : local);
}

} // namespace

absl::StatusOr<std::shared_ptr<Executable>>
compileFunction(const Function &function, const CompileOptions &options, CompileInfo *info) {
  return compileFunction(function, options, compileCache(), info);
}

absl::StatusOr<std::shared_ptr<Executable>> compileFunction(const Function &function,
                                                            const CompileOptions &options,
                                                            CompileCache &cache,
                                                            CompileInfo *info) {
  XS_ASSIGN_OR_RETURN(ResolvedDevice resolved, resolveDevice(options));
  auto start = std::chrono::steady_clock::now();
  bool hit = false;
  CompileInfo stages;
  std::string keyText = cacheKeyText(function, options, *resolved.backend);
  auto compile = [&] { return compileOrLoad(function, options, resolved, keyText, stages); };
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      options.useCache ? cache.getOrCompile(keyText, compile, &hit) : compile();
  if (!executable.ok())
    return executable.status();
  if (hit) {
    countCompileEvent(CompileEvent::MemoryHit);
    stages.source = ExecutableSource::Memory;
  }
  if (info) {
    info->compileSeconds = secondsSince(start);
    info->cacheHit = hit;
    info->source = stages.source;
    info->planSeconds = stages.planSeconds;
    info->llvmSeconds = stages.llvmSeconds;
    info->loadSeconds = stages.loadSeconds;
    info->warnings = stages.warnings;
    info->variants = static_cast<int>(speculatedVariantCount(**executable));
    info->kernels.clear();
    for (const HostStep &step : kernelPlan(**executable).steps)
      if (step.kind == HostStep::Kind::Launch)
        info->kernels.push_back(step.kernel);
  }
  return executable;
}

absl::StatusOr<CompiledProgram> compileProgram(const Function &function,
                                               const CompileOptions &options, CompileInfo *stages) {
  XS_ASSIGN_OR_RETURN(ResolvedDevice resolved, resolveDevice(options));
  return compileUncached(function, options, resolved, stages);
}

absl::StatusOr<std::shared_ptr<Executable>> loadProgram(CompiledProgram program,
                                                        const CompileOptions &options) {
  XS_ASSIGN_OR_RETURN(DeviceSpec device, parseDeviceName(options.device));
  return loadCompiledProgram(std::move(program), device, loadOptionsOf(options));
}

ProgramFileHeader programFileHeader(const Function &function, const CompileOptions &options) {
  absl::StatusOr<ResolvedDevice> resolved = resolveDevice(options);
  if (resolved.ok())
    return headerOf(function, options, *resolved);
  // A device that does not resolve compiles nothing: its header says only
  // what was asked for.
  ProgramFileHeader header;
  header.kind = "cache";
  header.producer = compilerIdentity();
  header.device = options.device;
  header.flushDenormals = options.flushDenormals;
  return header;
}

absl::StatusOr<ProgramFile> compileBundle(const Function &function, const CompileOptions &options,
                                          std::vector<std::string> inputNames,
                                          std::vector<std::string> outputNames,
                                          const std::string &source, CompileInfo *stages) {
  if (inputNames.empty())
    for (const auto &param : function.params())
      inputNames.push_back(param->name());
  if (outputNames.empty())
    for (const FunctionResult &result : function.results())
      outputNames.push_back(result.name);
  if (inputNames.size() != function.params().size() ||
      outputNames.size() != function.results().size())
    return absl::InvalidArgumentError(
        strCat("@", function.name(), " has ", function.params().size(), " inputs and ",
               function.results().size(), " results, but ", inputNames.size(), " and ",
               outputNames.size(), " names were given"));
  XS_ASSIGN_OR_RETURN(ResolvedDevice resolved, resolveDevice(options));
  XS_ASSIGN_OR_RETURN(CompiledProgram program,
                      compileUncached(function, options, resolved, stages));
  ProgramFile file{headerOf(function, options, resolved), std::move(program)};
  file.header.kind = "bundle";
  file.header.source = source;
  file.header.inputNames = std::move(inputNames);
  file.header.outputNames = std::move(outputNames);
  return file;
}

std::string_view executableSourceName(ExecutableSource source) {
  switch (source) {
  case ExecutableSource::Compiled:
    return "compiled";
  case ExecutableSource::Memory:
    return "memory";
  case ExecutableSource::Disk:
    return "disk";
  case ExecutableSource::Bundle:
    return "bundle";
  }
  return "compiled";
}

absl::StatusOr<ProgramPlan> planFunction(const Function &function, const CompileOptions &options) {
  XS_ASSIGN_OR_RETURN(ResolvedDevice resolved, resolveDevice(options));
  return planWith(function, options, *resolved.backend);
}

std::vector<std::string_view> emitFormats(const CompileOptions &options) {
  absl::StatusOr<DeviceSpec> device = parseDeviceName(options.device);
  const Backend *backend = device.ok() ? backendOf(*device) : nullptr;
  return backend ? backend->emitFormats : std::vector<std::string_view>();
}

absl::StatusOr<std::string> emitKernels(const Function &function, const CompileOptions &options,
                                        std::string_view format) {
  std::vector<std::string> formats;
  for (std::string_view f : emitFormats(options))
    formats.emplace_back(f);
  if (!formats.empty() && std::find(formats.begin(), formats.end(), format) == formats.end())
    return absl::InvalidArgumentError(strCat("--emit=", format, " is not code for ", options.device,
                                             "; its code is ", absl::StrJoin(formats, " or ")));
  XS_ASSIGN_OR_RETURN(ResolvedDevice resolved, resolveDevice(options));
  XS_ASSIGN_OR_RETURN(ProgramPlan plan, planWith(function, options, *resolved.backend));
  return resolved.backend->emit(plan, format);
}

} // namespace xs
