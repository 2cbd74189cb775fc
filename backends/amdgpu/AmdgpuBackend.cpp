#include "backends/amdgpu/AmdgpuBackend.h"

#include "backends/amdgpu/AmdgpuCompiler.h"
#include "backends/amdgpu/AmdgpuTarget.h"
#include "backends/common/KernelEmitter.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

namespace xs {

namespace {

/// The HSA code object version the kernels' metadata follows (ROCm 6 and
/// later load it; LLVM 19's default).
constexpr int kCodeObjectVersion = 500;

AmdgpuCompileOptions compileOptions(const AmdgpuOptions &options) {
  return AmdgpuCompileOptions{options.limits.arch, options.optLevel};
}

} // namespace

TargetDescription amdgpuTargetDescriptionOf(const AmdgpuOptions &options) {
  return amdgpuTargetDescription(options.limits, options.lanesPerBlock);
}

absl::StatusOr<std::unique_ptr<llvm::Module>> emitAmdgpuModule(const ProgramPlan &program,
                                                               const AmdgpuOptions &options,
                                                               llvm::LLVMContext &context) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                      createAmdgpuTargetMachine(compileOptions(options)));
  auto module = std::make_unique<llvm::Module>("xstitch." + program.host.function, context);
  module->setTargetTriple(kAmdgpuTriple);
  module->setDataLayout(machine->createDataLayout());
  module->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", kCodeObjectVersion);
  AmdgpuTarget target(amdgpuTargetDescriptionOf(options),
                      module->getDataLayout().getStringRepresentation(), options.limits.arch,
                      options.shuffles);
  XS_RETURN_IF_ERROR(emitProgramKernels(program, target, *module));
  for (llvm::Function &function : *module) {
    if (function.isDeclaration())
      continue;
    if (options.flushDenormals)
      function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
  return module;
}

absl::StatusOr<std::string> emitAmdgcn(const ProgramPlan &program, const AmdgpuOptions &options) {
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitAmdgpuModule(program, options, context));
  return compileToAmdgcn(*module, compileOptions(options));
}

absl::StatusOr<std::string> emitHsaco(const ProgramPlan &program, const AmdgpuOptions &options) {
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitAmdgpuModule(program, options, context));
  XS_ASSIGN_OR_RETURN(std::string object, compileToAmdgpuObject(*module, compileOptions(options)));
  return linkHsaco(object);
}

absl::StatusOr<std::string> emitAmdgpuLLVMIR(const ProgramPlan &program,
                                             const AmdgpuOptions &options) {
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitAmdgpuModule(program, options, context));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return text;
}

} // namespace xs
