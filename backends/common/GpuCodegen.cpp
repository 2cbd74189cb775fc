#include "backends/common/GpuCodegen.h"

#include "ir/Diagnostics.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"

namespace xs {

namespace {

llvm::OptimizationLevel optimizationLevel(int level) {
  return level >= 3   ? llvm::OptimizationLevel::O3
         : level == 2 ? llvm::OptimizationLevel::O2
         : level == 1 ? llvm::OptimizationLevel::O1
                      : llvm::OptimizationLevel::O0;
}

} // namespace

absl::Status optimizeGpuModule(llvm::Module &module, llvm::TargetMachine &machine, int optLevel,
                               std::string_view what) {
  std::string message;
  llvm::raw_string_ostream messages(message);
  if (llvm::verifyModule(module, &messages))
    return absl::InternalError(strCat(what, " failed LLVM IR verification: ", message));
  llvm::OptimizationLevel level = optimizationLevel(optLevel);
  if (level == llvm::OptimizationLevel::O0)
    return absl::OkStatus();
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
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
  return absl::OkStatus();
}

absl::StatusOr<std::string> generateMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                                                llvm::CodeGenFileType type, std::string_view what) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, out, nullptr, type))
    return absl::InternalError(strCat("the target machine of ", what, " cannot emit its code"));
  passes.run(module);
  return std::string(buffer.begin(), buffer.end());
}

} // namespace xs
