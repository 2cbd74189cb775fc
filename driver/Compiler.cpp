#include "driver/Compiler.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/nvptx/NvptxBackend.h"
#include "backends/nvptx/NvptxSimulation.h"
#include "backends/x86/X86Backend.h"
#include "driver/BuildIdentity.h"
#include "driver/CompileCache.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "runtime/SpeculatedExecutable.h"
#include "runtime/devices/Devices.h"
#include "transforms/Pass.h"
#include "transforms/SpecializeDims.h"
#include "transforms/SpeculateBroadcasts.h"

namespace xs {
namespace {

absl::Status checkDevice(const CompileOptions &options) {
  if (options.device == "cpu")
    return absl::OkStatus();
  if (isCudaDeviceName(options.device))
    return cudaOrdinal(options.device).status();
  if (isNvptxSimulationName(options.device))
    return checkNvptxSimulationName(options.device);
  return absl::InvalidArgumentError(absl::StrCat("device '", options.device,
                                                 "' is not supported; devices are cpu, "
                                                 "cuda[:N] and nvptx-sim[:sm_XX][:phases]"));
}

X86Options x86Options(const CompileOptions &options) {
  X86Options x86;
  x86.cpu = options.cpu;
  x86.features = options.features;
  x86.threads = options.threads;
  x86.minElementsPerBlock = options.blockElements;
  x86.flushDenormals = options.flushDenormals;
  x86.streamingStoreBytes = options.streamingStoreBytes;
  return x86;
}

// Everything that determines the generated code and where it is loaded.
constexpr int64_t kLiteralsInCacheKeys = 64;

std::string resolvedTarget(const CompileOptions &options);

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

std::string cacheKeyText(const Function &function, const CompileOptions &options) {
  return absl::StrCat(
      compilerIdentity(), "\ndevice=", options.device, "\ntarget=", resolvedTarget(options),
      "\nfusion=", options.fusion ? 1 : 0, "\ndata_checks=", options.dataChecks ? 1 : 0,
      "\nthreads=", options.threads, "\nflush_denormals=", options.flushDenormals ? 1 : 0,
      "\nsync_launches=", options.syncLaunches ? 1 : 0, "\nblock_elements=", options.blockElements,
      "\nstreaming_store_bytes=", options.streamingStoreBytes, "\ncpu=", options.cpu,
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

/// The NVPTX backend's options for `name`: a preset's limits, or a CUDA
/// device's queried ones, and the float mode of `options`.
absl::StatusOr<NvptxOptions> nvptxOptionsFor(std::string_view name, const CompileOptions &options) {
  XS_ASSIGN_OR_RETURN(NvidiaDeviceLimits limits, resolveNvidiaTarget(name));
  NvptxOptions nvptx;
  nvptx.limits = std::move(limits);
  nvptx.flushDenormals = options.flushDenormals;
  return nvptx;
}

PlanOptions planOptionsOf(const CompileOptions &options) {
  PlanOptions plan;
  plan.fusion = options.fusion;
  plan.dataChecks = options.dataChecks;
  return plan;
}

/// Plans `function` for the NVIDIA GPU `nvptx` describes.
absl::StatusOr<ProgramPlan> planForNvptx(const Function &function, const CompileOptions &options,
                                         const NvptxOptions &nvptx) {
  return planProgram(function, nvptxTargetDescription(nvptx), planOptionsOf(options));
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool isNvidiaPresetName(std::string_view device) { return device.rfind("sm_", 0) == 0; }

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

/// Compiles `function` (without broadcast facts) for options.device, timing
/// the stages into `stages`.
absl::StatusOr<CompiledProgram>
compileOneProgram(const Function &function, const CompileOptions &options, CompileInfo &stages) {
  auto start = std::chrono::steady_clock::now();
  reportStage(options, "planning");
  if (isCudaDeviceName(options.device) || isNvidiaPresetName(options.device)) {
    // A present GPU's limits are queried once, for planning and code
    // generation; a preset's are known.
    XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(options.device, options));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
    stages.planSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    reportStage(options, codeGenerationStage(plan, "PTX"));
    XS_ASSIGN_OR_RETURN(std::string ptx, emitPtx(plan, nvptx));
    stages.llvmSeconds = secondsSince(start);
    return CompiledProgram{std::move(plan.host), "ptx", {std::move(ptx)}};
  }
  if (isNvptxSimulationName(options.device)) {
    XS_ASSIGN_OR_RETURN(NvptxOptions nvptx,
                        nvptxOptionsFor(simulatedNvidiaTarget(options.device), options));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
    stages.planSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    reportStage(options, codeGenerationStage(plan, "simulated code"));
    XS_ASSIGN_OR_RETURN(CompiledProgram program,
                        compileNvptxSimulation(plan, nvptx, x86Options(options)));
    stages.llvmSeconds = secondsSince(start);
    return program;
  }
  CompileOptions planned = options;
  planned.specialize.clear(); // done by compileStages
  XS_ASSIGN_OR_RETURN(ProgramPlan plan, planFunction(function, planned));
  stages.planSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();
  reportStage(options, codeGenerationStage(plan, "code"));
  XS_ASSIGN_OR_RETURN(CompiledProgram program, compileForX86(plan, x86Options(options)));
  stages.llvmSeconds = secondsSince(start);
  return program;
}

/// Compiles `function` for options.device: specialized first where asked,
/// then one program, or one per speculated broadcast variant.
absl::StatusOr<CompiledProgram> compileStages(const Function &original,
                                              const CompileOptions &options, CompileInfo &stages) {
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
    XS_ASSIGN_OR_RETURN(CompiledProgram program, compileOneProgram(function, options, stages));
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
      compiled[v] =
          module.ok() ? compileOneProgram(*(*module)->functions().front(), quiet, variantStages[v])
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

/// The CPU and features x86 code is generated for; the host's are resolved
/// once per process.
X86Cpu x86CpuFor(const CompileOptions &options) {
  if (!options.cpu.empty() || !options.features.empty())
    return resolveX86Cpu(x86Options(options));
  static const X86Cpu *host = new X86Cpu(resolveX86Cpu(X86Options()));
  return *host;
}

/// What the code is for, beyond the options: the x86 CPU, or the NVIDIA
/// architecture (a present GPU's, queried).
std::string resolvedTarget(const CompileOptions &options) {
  if (options.device == "cpu" || isNvptxSimulationName(options.device)) {
    X86Cpu cpu = x86CpuFor(options);
    return strCat("x86 ", cpu.cpu, " ", cpu.features);
  }
  absl::StatusOr<NvidiaDeviceLimits> limits = resolveNvidiaTarget(options.device);
  return limits.ok() ? strCat("nvptx ", limits->arch, " ", limits->part) : std::string("nvptx ?");
}

/// The in-memory compile cache's miss: the persistent cache's entry, or a
/// compile (stored there for the next process).
absl::StatusOr<std::shared_ptr<Executable>> compileOrLoad(const Function &function,
                                                          const CompileOptions &options,
                                                          const std::string &keyText,
                                                          CompileInfo &stages) {
  const DiskCacheOptions &disk = options.diskCache;
  bool persistent = options.useCache && !disk.directory.empty();
  if (persistent) {
    auto start = std::chrono::steady_clock::now();
    std::string warning;
    if (std::optional<ProgramFile> file = loadDiskCacheEntry(disk, keyText, &warning)) {
      absl::StatusOr<std::shared_ptr<Executable>> loaded =
          loadProgram(std::move(file->program), options);
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
  XS_ASSIGN_OR_RETURN(CompiledProgram program, compileStages(function, options, stages));
  if (persistent) {
    ProgramFile file{programFileHeader(function, options), program};
    file.header.key = keyText;
    if (absl::Status stored = storeDiskCacheEntry(disk, file); !stored.ok())
      stages.warnings.push_back(std::string(stored.message()));
  }
  auto start = std::chrono::steady_clock::now();
  reportStage(options, "loading");
  absl::StatusOr<std::shared_ptr<Executable>> loaded = loadProgram(std::move(program), options);
  stages.loadSeconds = secondsSince(start);
  return loaded;
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
  if (absl::Status s = checkDevice(options); !s.ok())
    return s;
  auto start = std::chrono::steady_clock::now();
  bool hit = false;
  CompileInfo stages;
  std::string keyText = cacheKeyText(function, options);
  auto compile = [&] { return compileOrLoad(function, options, keyText, stages); };
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
  if (!isNvidiaPresetName(options.device))
    XS_RETURN_IF_ERROR(checkDevice(options));
  CompileInfo local;
  countCompileEvent(CompileEvent::Compilation);
  return compileStages(function, options, stages ? *stages : local);
}

absl::StatusOr<std::shared_ptr<Executable>> loadProgram(CompiledProgram program,
                                                        const CompileOptions &options) {
  if (isNvidiaPresetName(options.device))
    return absl::InvalidArgumentError(
        strCat(options.device, " is a compile target; run its code on a device such as cuda:0"));
  XS_RETURN_IF_ERROR(checkDevice(options));
  LoadOptions load;
  load.device = options.device;
  load.threads = options.threads;
  load.flushDenormals = options.flushDenormals;
  load.syncLaunches = options.syncLaunches;
  return loadCompiledProgram(std::move(program), load);
}

ProgramFileHeader programFileHeader(const Function &function, const CompileOptions &options) {
  ProgramFileHeader header;
  header.kind = "cache";
  header.producer = compilerIdentity();
  header.device = options.device;
  header.flushDenormals = options.flushDenormals;
  if (options.device == "cpu" || isNvptxSimulationName(options.device)) {
    X86Cpu cpu = x86CpuFor(options);
    header.cpu = cpu.cpu;
    header.features = cpu.features;
  }
  header.key = cacheKeyText(function, options);
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
  XS_ASSIGN_OR_RETURN(CompiledProgram program, compileProgram(function, options, stages));
  ProgramFile file{programFileHeader(function, options), std::move(program)};
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
  if (absl::Status s = checkDevice(options); !s.ok())
    return s;
  // Specializing first decides the broadcast relations it gives values to,
  // as compileStages does.
  if (!options.specialize.empty()) {
    XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> specialized,
                        specializeDims(function, options.specialize));
    XS_RETURN_IF_ERROR(runPipeline(*specialized, defaultPipeline(), PipelineOptions()));
    CompileOptions symbolic = options;
    symbolic.specialize.clear();
    return planFunction(*specialized->functions().front(), symbolic);
  }
  XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> variant, firstVariant(function));
  if (variant)
    return planFunction(*variant->functions().front(), options);
  if (isCudaDeviceName(options.device))
    return planNvidiaFunction(function, options, options.device);
  if (isNvptxSimulationName(options.device))
    return planNvidiaFunction(function, options, simulatedNvidiaTarget(options.device));
  return planProgram(function, x86TargetDescription(x86Options(options)), planOptionsOf(options));
}

absl::StatusOr<ProgramPlan> planNvidiaFunction(const Function &function,
                                               const CompileOptions &options,
                                               std::string_view target) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> variant, firstVariant(function));
  if (variant)
    return planNvidiaFunction(*variant->functions().front(), options, target);
  XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(target, options));
  return planForNvptx(function, options, nvptx);
}

absl::StatusOr<std::string> emitNvidiaKernels(const Function &function,
                                              const CompileOptions &options,
                                              std::string_view target, bool llvmIR) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> variant, firstVariant(function));
  if (variant)
    return emitNvidiaKernels(*variant->functions().front(), options, target, llvmIR);
  XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(target, options));
  XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
  return llvmIR ? emitNvptxLLVMIR(plan, nvptx) : emitPtx(plan, nvptx);
}

absl::StatusOr<std::string> emitLLVMIR(const Function &function, const CompileOptions &options,
                                       bool optimized) {
  if (options.device != "cpu")
    return absl::InvalidArgumentError(
        absl::StrCat("x86 LLVM IR is CPU code; for ", options.device, " emit ptx or nvptx-llvm"));
  absl::StatusOr<ProgramPlan> plan = planFunction(function, options);
  if (!plan.ok())
    return plan.status();
  return emitX86LLVMIR(*plan, x86Options(options), optimized);
}

} // namespace xs
