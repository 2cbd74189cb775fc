#include "backends/nvptx/PtxCompiler.h"

#include <mutex>

#include "backends/nvptx/NvidiaTargetDescription.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"

namespace xs {

namespace {

void initializeNvptxOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// The oldest PTX ISA that knows the architecture (LLVM would otherwise
/// print PTX 6.0, which ptxas refuses for sm_80 and newer).
const char *ptxFeature(const std::string &arch) {
  if (arch == "sm_70")
    return "+ptx60";
  if (arch == "sm_80")
    return "+ptx70";
  if (arch == "sm_86")
    return "+ptx71";
  return "+ptx78"; // sm_89, sm_90
}

llvm::OptimizationLevel optimizationLevel(int level) {
  return level >= 3   ? llvm::OptimizationLevel::O3
         : level == 2 ? llvm::OptimizationLevel::O2
         : level == 1 ? llvm::OptimizationLevel::O1
                      : llvm::OptimizationLevel::O0;
}

} // namespace

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const PtxOptions &options) {
  XS_RETURN_IF_ERROR(nvidiaPreset(options.arch).status());
  initializeNvptxOnce();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kNvptxTriple, error);
  if (!target)
    return absl::InternalError(strCat("the NVPTX target is unavailable in LLVM: ", error));
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kNvptxTriple, options.arch, ptxFeature(options.arch), targetOptions, std::nullopt,
      std::nullopt,
      options.optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::None));
  if (!machine)
    return absl::InternalError(strCat("cannot create an NVPTX target machine for ", options.arch));
  return machine;
}

absl::StatusOr<std::string> compileToPtx(llvm::Module &module, const PtxOptions &options) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                      createNvptxTargetMachine(options));
  module.setTargetTriple(kNvptxTriple);
  module.setDataLayout(machine->createDataLayout());
  std::string message;
  llvm::raw_string_ostream messages(message);
  if (llvm::verifyModule(module, &messages))
    return absl::InternalError(strCat("the NVPTX module failed LLVM IR verification: ", message));

  llvm::OptimizationLevel level = optimizationLevel(options.optLevel);
  if (level != llvm::OptimizationLevel::O0) {
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder builder(machine.get());
    // Kernels cast their buffers to the global address space and back
    // (NvptxTarget::bufferArg); inferring the address spaces before
    // InstCombine folds that round trip away makes their accesses global.
    builder.registerPipelineStartEPCallback(
        [](llvm::ModulePassManager &pipeline, llvm::OptimizationLevel) {
          pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InferAddressSpacesPass()));
        });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    builder.buildPerModuleDefaultPipeline(level).run(module, modules);
  }

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream ptx(buffer);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, ptx, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return absl::InternalError("the NVPTX target machine cannot print PTX");
  passes.run(module);
  return std::string(buffer.begin(), buffer.end());
}

} // namespace xs
