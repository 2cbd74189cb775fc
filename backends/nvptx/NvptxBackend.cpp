#include "backends/nvptx/NvptxBackend.h"

#include "backends/common/KernelEmitter.h"
#include "backends/nvptx/NvptxTarget.h"
#include "backends/nvptx/PtxCompiler.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

namespace xs {

namespace {

PtxOptions ptxOptions(const NvptxOptions &options) {
  return PtxOptions{options.limits.arch, options.optLevel};
}

} // namespace

absl::StatusOr<std::unique_ptr<llvm::Module>> emitNvptxModule(const ProgramPlan &program,
                                                              const NvptxOptions &options,
                                                              llvm::LLVMContext &context) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                      createNvptxTargetMachine(ptxOptions(options)));
  auto module = std::make_unique<llvm::Module>("xstitch." + program.host.function, context);
  module->setTargetTriple(kNvptxTriple);
  module->setDataLayout(machine->createDataLayout());
  NvptxTarget target(nvptxTargetDescription(options),
                     module->getDataLayout().getStringRepresentation());
  XS_RETURN_IF_ERROR(emitProgramKernels(program, target, *module));
  // NVPTX chooses the .ftz forms from the functions' f32 denormal mode.
  if (options.flushDenormals)
    for (llvm::Function &function : *module)
      if (!function.isDeclaration())
        function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
  return module;
}

TargetDescription nvptxTargetDescription(const NvptxOptions &options) {
  return nvidiaTargetDescription(options.limits, options.lanesPerBlock);
}

absl::StatusOr<std::string> emitPtx(const ProgramPlan &program, const NvptxOptions &options) {
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitNvptxModule(program, options, context));
  return compileToPtx(*module, ptxOptions(options));
}

absl::StatusOr<std::string> emitNvptxLLVMIR(const ProgramPlan &program,
                                            const NvptxOptions &options) {
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitNvptxModule(program, options, context));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return text;
}

} // namespace xs
