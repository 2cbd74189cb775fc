// The x86 backend: emits the kernels through the common emitter with an
// X86Target, verifies, optimizes at -O3 for the chosen CPU and compiles to
// an ELF object in memory. Everything that touches an LLVMContext is created
// per call, so several threads may compile at once; only the registration
// of the X86 target is shared (once, thread-safe).

#include "backends/x86/X86Backend.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <thread>
#include <tuple>
#include <unistd.h>

#include "absl/container/flat_hash_map.h"
#include "backends/common/KernelABI.h"
#include "backends/common/KernelEmitter.h"
#include "backends/x86/PromoteHalfVectors.h"
#include "backends/x86/SoftmaxMaximum.h"
#include "backends/x86/StreamingStores.h"
#include "backends/x86/WindowedGathers.h"
#include "backends/x86/X86Target.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

namespace xs {
namespace {

void initializeX86Once() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
  });
}

} // namespace

X86Cpu resolveX86Cpu(const X86Options &options) {
  if (!options.cpu.empty())
    return {options.cpu, options.features};
  if (!options.features.empty())
    return {llvm::sys::getHostCPUName().str(), options.features};
  // Sorted: the string is part of compile-cache keys and bundle headers.
  std::vector<std::string> list;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    list.push_back((feature.second ? "+" : "-") + feature.first().str());
  std::sort(list.begin(), list.end());
  std::string features;
  for (const std::string &f : list)
    features += (features.empty() ? "" : ",") + f;
  return {llvm::sys::getHostCPUName().str(), features};
}

namespace {

llvm::CodeGenOptLevel codeGenLevel(int optLevel) {
  return optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
         : optLevel == 2 ? llvm::CodeGenOptLevel::Default
         : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                         : llvm::CodeGenOptLevel::None;
}

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const X86Cpu &cpu,
                                                                         int optLevel) {
  initializeX86Once();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(X86Target::kTriple, error);
  if (!target)
    return absl::InternalError(strCat("x86 target unavailable in LLVM: ", error));
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(X86Target::kTriple, cpu.cpu, cpu.features, targetOptions,
                                  llvm::Reloc::PIC_, std::nullopt, codeGenLevel(optLevel)));
  if (!machine)
    return absl::InternalError(strCat("cannot create an x86 target machine for CPU '", cpu.cpu,
                                      "' with features '", cpu.features, "'"));
  return machine;
}

TargetDescription describe(const X86Options &options, const X86Cpu &cpu,
                           const llvm::TargetMachine *machine) {
  // f32 lanes of the widest vector registers the CPU has.
  int64_t lanes = 4;
  if (machine) {
    const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();
    if (subtarget->checkFeatures("+avx512f"))
      lanes = 16;
    else if (subtarget->checkFeatures("+avx"))
      lanes = 8;
  }
  TargetDescription d;
  d.name = "x86-64 " + cpu.cpu;
  d.lanesPerBlock = lanes;
  d.warpWidth = lanes;
  d.vectorBytes = lanes * 4;
  d.blockBufferBytes = 256 * 1024;
  unsigned hardware = std::thread::hardware_concurrency();
  d.parallelUnits = options.threads > 0 ? options.threads : std::max(1u, hardware);
  d.minElementsPerBlock = options.minElementsPerBlock > 0 ? options.minElementsPerBlock : 16384;
  d.packedRowElements = 256;
  d.pairedRowElements = 2048;
  d.resultTilesAsBlockBuffers = true;
  d.resultTileMinBytes = 8 * 1024;
  d.tasksPerUnit = 4;
  d.flushesSubnormals = options.flushDenormals;
  d.keepsWidenedHalves = true;
  d.stitchesColumnStrips = true;
  return d;
}

/// Collects LLVM errors instead of exiting; warnings and remarks (a loop
/// that could not be vectorized) are dropped.
struct DiagnosticCollector {
  std::string firstError;
  static void handle(const llvm::DiagnosticInfo *info, void *context) {
    auto *self = static_cast<DiagnosticCollector *>(context);
    if (info->getSeverity() != llvm::DS_Error || !self->firstError.empty())
      return;
    llvm::raw_string_ostream os(self->firstError);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info->print(printer);
  }
};

/// Vetoes LLVM's codegen loop strength reduction (X86Options::
/// loopStrengthReduction). The gate belongs to one compilation's context, so
/// it changes nothing for other compilations or other LLVM users in the
/// process, unlike LLVM's global -disable-lsr.
class SkipLoopStrengthReduction : public llvm::OptPassGate {
public:
  bool isEnabled() const override { return true; }
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) override {
    return pass != "Loop Strength Reduction";
  }
};

std::string kernelNames(const ProgramPlan &program) {
  std::string names;
  for (const KernelPlan &plan : program.kernels)
    names += (names.empty() ? "" : ", ") + plan.name;
  return names;
}

/// The size of the last-level cache the first CPU shares, from sysfs (what
/// a virtual machine is given; sysconf reports the host's whole L3), else
/// from sysconf; 0 when neither says.
int64_t lastLevelCacheBytes() {
  int64_t bytes = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream size("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                       "/size");
    int64_t value = 0;
    char unit = 0;
    if (!(size >> value))
      break;
    size >> unit;
    bytes = value * (unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : 1);
  }
  if (bytes > 0)
    return bytes;
  long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return cache > 0 ? cache : 0;
}

/// A result larger than half the last-level cache would not stay in it;
/// nor, where the cache is shared with other tenants (a large server L3
/// that a virtual machine sees whole), one of more than 16 MiB: measured on
/// a 2-core VM of a 260 MiB L3, y = -x of 64 MiB runs in 2.8 ms with
/// streaming stores against 7.2 ms without, 32 MiB in 1.3 against 1.7 ms.
int64_t streamingThreshold(const X86Options &options) {
  if (options.streamingStoreBytes != 0)
    return std::max<int64_t>(options.streamingStoreBytes, 0);
  static const int64_t cache = lastLevelCacheBytes();
  constexpr int64_t kShared = int64_t(16) << 20;
  return cache > 0 ? std::min(cache / 2, kShared) : kShared;
}

/// The arguments of each compiled kernel function that may be written with
/// streaming stores (StreamingStoresPass): every argument, except those
/// whose size is known at compile time to stay below the threshold in every
/// launch that runs the function.
absl::flat_hash_map<std::string, uint64_t> streamableArguments(const ProgramPlan &program,
                                                               int64_t threshold) {
  absl::flat_hash_map<std::string, uint64_t> masks;
  for (const HostStep &step : program.host.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    uint64_t mask = 0;
    for (size_t a = 0; a < step.buffers.size() && a < kStreamMaskBits; ++a) {
      const TensorType &type = program.host.buffers[static_cast<size_t>(step.buffers[a])].type;
      std::optional<int64_t> elements = type.numElements().constantValue();
      if (threshold > 0 &&
          (!elements || *elements * elementByteSize(type.elementType()) >= threshold))
        mask |= uint64_t{1} << a;
    }
    for (const HostLaunchVariant &variant : step.variants)
      for (int phase = 0; phase < variant.phases; ++phase)
        masks[phaseSymbol(variant.symbol, phase)] |= mask;
  }
  return masks;
}

/// LLVM's pipeline at `optLevel`, then xstitch's own passes: softmax maxima
/// as MAXPS, 16-bit float vector operations back in f32 where the CPU has
/// no arithmetic in them, streaming stores when `streamingStores`, and
/// gathers of short windows as a load and a permute.
void optimizeForX86(llvm::Module &module, llvm::TargetMachine *machine, int optLevel,
                    bool streamingStores) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  llvm::PassBuilder builder(machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::OptimizationLevel level = optLevel >= 3   ? llvm::OptimizationLevel::O3
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                                  : llvm::OptimizationLevel::O0;
  // bf16 vectors always: x86 has no bf16 arithmetic before AVX10.2.
  PromoteHalfVectorsPass promote;
  promote.half = !(machine && machine->getMCSubtargetInfo()->checkFeatures("+avx512fp16"));
  WindowedGathersPass windows;
  windows.avx2 = machine && machine->getMCSubtargetInfo()->checkFeatures("+avx2");
  windows.avx512 = machine && machine->getMCSubtargetInfo()->checkFeatures("+avx512f");
  if (level != llvm::OptimizationLevel::O0)
    builder.registerOptimizerLastEPCallback(
        [streamingStores, promote, windows](llvm::ModulePassManager &passes,
                                            llvm::OptimizationLevel) {
          llvm::FunctionPassManager last;
          last.addPass(SoftmaxMaximumPass());
          last.addPass(PromoteHalfVectorsPass(promote));
          // After the streaming stores: their versioning takes loops of one block.
          if (streamingStores)
            last.addPass(StreamingStoresPass());
          last.addPass(WindowedGathersPass(windows));
          passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(last)));
        });
  llvm::ModulePassManager pipeline = level == llvm::OptimizationLevel::O0
                                         ? builder.buildO0DefaultPipeline(level)
                                         : builder.buildPerModuleDefaultPipeline(level);
  pipeline.run(module, modules);
}

/// The object code of `module`; an LLVM error is an internal error after
/// `failure`.
absl::StatusOr<std::string> emitX86Object(llvm::Module &module, llvm::TargetMachine &machine,
                                          const DiagnosticCollector &diagnostics,
                                          const std::string &failure) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return absl::InternalError("the x86 target machine cannot emit object files");
  passes.run(module);
  if (!diagnostics.firstError.empty())
    return absl::InternalError(failure + diagnostics.firstError);
  return std::string(buffer.begin(), buffer.end());
}

/// One compilation: a context, a module and a target machine of its own.
class X86Compilation {
public:
  explicit X86Compilation(const X86Options &options) : options_(options) {
    context_.setDiagnosticHandlerCallBack(&DiagnosticCollector::handle, &diagnostics_);
  }

  absl::Status emit(const ProgramPlan &program, const std::vector<KernelPiece> &pieces) {
    X86Cpu cpu = resolveX86Cpu(options_);
    absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
        createTargetMachine(cpu, options_.optLevel);
    if (!machine.ok())
      return machine.status();
    machine_ = std::move(*machine);
    module_ = std::make_unique<llvm::Module>("xstitch." + program.host.function, context_);
    module_->setTargetTriple(X86Target::kTriple);
    module_->setDataLayout(machine_->createDataLayout());
    TargetDescription description = describe(options_, cpu, machine_.get());
    bool nativeBFloat = description.flushesSubnormals &&
                        machine_->getMCSubtargetInfo()->checkFeatures("+avx512bf16");
    X86Target target(std::move(description), cpu.cpu, cpu.features, module_->getDataLayoutStr(),
                     nativeBFloat ? BFloatRounding::Native : BFloatRounding::Integer);
    if (absl::Status s = emitProgramKernels(program, pieces, target, *module_); !s.ok())
      return s;
    for (llvm::Function &function : *module_) {
      if (function.isDeclaration())
        continue;
      std::string message;
      llvm::raw_string_ostream os(message);
      if (llvm::verifyFunction(function, &os))
        return absl::InternalError(
            strCat("kernel ", function.getName().str(), " failed LLVM IR verification: ", message));
    }
    std::string message;
    llvm::raw_string_ostream os(message);
    if (llvm::verifyModule(*module_, &os))
      return absl::InternalError(
          strCat("kernels ", kernelNames(program), " failed LLVM IR verification: ", message));
    absl::flat_hash_map<std::string, uint64_t> streamable =
        streamableArguments(program, streamingThreshold(options_));
    for (llvm::Function &function : *module_)
      if (auto mask = streamable.find(function.getName().str());
          mask != streamable.end() && mask->second != 0)
        function.addFnAttr(kStreamableArgumentsAttribute, std::to_string(mask->second));
    return absl::OkStatus();
  }

  void optimize() {
    optimizeForX86(*module_, machine_.get(), options_.optLevel, /*streamingStores=*/true);
  }

  /// The optimized module verifies (xstitch's own passes among LLVM's).
  absl::Status verifyOptimized(const ProgramPlan &program) {
    std::string message;
    llvm::raw_string_ostream os(message);
    if (llvm::verifyModule(*module_, &os))
      return absl::InternalError(
          strCat("kernels ", kernelNames(program),
                 " failed LLVM IR verification after optimization: ", message));
    return absl::OkStatus();
  }

  absl::StatusOr<std::string> object(const ProgramPlan &program) {
    if (!options_.loopStrengthReduction)
      context_.setOptPassGate(skipLoopStrengthReduction_);
    return emitX86Object(*module_, *machine_, diagnostics_,
                         strCat("compiling kernels ", kernelNames(program), " failed: "));
  }

  std::string text() const {
    std::string out;
    llvm::raw_string_ostream os(out);
    module_->print(os, nullptr);
    return out;
  }

private:
  X86Options options_;
  DiagnosticCollector diagnostics_;
  SkipLoopStrengthReduction skipLoopStrengthReduction_; // outlives context_
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::TargetMachine> machine_;
  std::unique_ptr<llvm::Module> module_;
};

} // namespace

TargetDescription x86TargetDescription(const X86Options &options) {
  X86Cpu cpu = resolveX86Cpu(options);
  absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(cpu, options.optLevel);
  return describe(options, cpu, machine.ok() ? machine->get() : nullptr);
}

absl::StatusOr<CompiledProgram> compileForX86(const ProgramPlan &program,
                                              const X86Options &options) {
  // Each phase of each kernel variant is an independent function: each
  // worker compiles a share of them into an object of its own (a context,
  // module and target machine per worker), so that compiling uses all cores.
  // Shares are balanced by size (the ops of the phase's groups), largest
  // first.
  std::vector<KernelPiece> pieces;
  std::vector<size_t> size;
  for (const KernelPiece &whole : programPieces(program)) {
    const KernelVariant &variant = program.kernels[whole.kernel].variants[whole.variant];
    for (size_t p = 0; p < variant.phases.size(); ++p) {
      size_t ops = 0;
      for (const PlanStage &stage : variant.phases[p].stages)
        for (int g : stage.groups)
          ops += variant.groups[static_cast<size_t>(g)].ops.size();
      pieces.push_back({whole.kernel, whole.variant, static_cast<int>(p)});
      size.push_back(ops);
    }
  }
  unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  size_t jobs = std::max<size_t>(1, std::min<size_t>(pieces.size(), hardware));
  std::vector<size_t> order(pieces.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return size[a] != size[b] ? size[a] > size[b] : a < b; });
  std::vector<std::vector<KernelPiece>> shares(jobs);
  std::vector<size_t> load(jobs, 0);
  for (size_t i : order) {
    size_t job = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[job].push_back(pieces[i]);
    load[job] += size[i];
  }
  std::vector<absl::StatusOr<std::string>> objects(jobs, std::string());
  auto compile = [&](size_t job) {
    std::vector<KernelPiece> mine = shares[job];
    std::sort(mine.begin(), mine.end(), [](const KernelPiece &a, const KernelPiece &b) {
      return std::tie(a.kernel, a.variant, a.phase) < std::tie(b.kernel, b.variant, b.phase);
    });
    X86Compilation compilation(options);
    if (absl::Status s = compilation.emit(program, mine); !s.ok()) {
      objects[job] = s;
      return;
    }
    compilation.optimize();
    if (absl::Status s = compilation.verifyOptimized(program); !s.ok()) {
      objects[job] = s;
      return;
    }
    objects[job] = compilation.object(program);
  };
  std::vector<std::thread> workers;
  for (size_t job = 1; job < jobs; ++job)
    workers.emplace_back(compile, job);
  compile(0);
  for (std::thread &worker : workers)
    worker.join();
  CompiledProgram compiled;
  compiled.host = program.host;
  compiled.objectFormat = "x86_64-elf";
  compiled.streamingStoreBytes = streamingThreshold(options);
  for (absl::StatusOr<std::string> &object : objects) {
    if (!object.ok())
      return object.status();
    compiled.objects.push_back(std::move(*object));
  }
  return compiled;
}

absl::StatusOr<std::string> emitX86LLVMIR(const ProgramPlan &program, const X86Options &options,
                                          bool optimized) {
  X86Compilation compilation(options);
  if (absl::Status s = compilation.emit(program, programPieces(program)); !s.ok())
    return s;
  if (optimized)
    compilation.optimize();
  return compilation.text();
}

absl::StatusOr<std::string> compileHostModule(llvm::Module &module, const X86Options &options) {
  X86Cpu cpu = resolveX86Cpu(options);
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                      createTargetMachine(cpu, options.optLevel));
  module.setTargetTriple(X86Target::kTriple);
  module.setDataLayout(machine->createDataLayout());
  DiagnosticCollector diagnostics;
  module.getContext().setDiagnosticHandlerCallBack(&DiagnosticCollector::handle, &diagnostics);
  std::string message;
  llvm::raw_string_ostream os(message);
  if (llvm::verifyModule(module, &os))
    return absl::InternalError(
        strCat("module ", module.getName().str(), " failed LLVM IR verification: ", message));
  optimizeForX86(module, machine.get(), options.optLevel, /*streamingStores=*/false);
  SkipLoopStrengthReduction skipLoopStrengthReduction;
  if (!options.loopStrengthReduction)
    module.getContext().setOptPassGate(skipLoopStrengthReduction);
  absl::StatusOr<std::string> object =
      emitX86Object(module, *machine, diagnostics,
                    strCat("compiling module ", module.getName().str(), " failed: "));
  module.getContext().setDiagnosticHandlerCallBack(nullptr, nullptr);
  if (!options.loopStrengthReduction)
    module.getContext().setOptPassGate(llvm::getGlobalPassGate());
  return object;
}

} // namespace xs
