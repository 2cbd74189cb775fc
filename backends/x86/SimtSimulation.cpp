#include "backends/x86/SimtSimulation.h"

#include "ir/Diagnostics.h"

namespace xs {

absl::StatusOr<CompiledProgram> compileSimtSimulation(
    const ProgramPlan &program, const std::vector<SimtKernel> &kernels,
    const std::function<absl::StatusOr<std::unique_ptr<llvm::Module>>(llvm::LLVMContext &)> &emit,
    const SimtDialect &dialect, const X86Options &host) {
  CompiledProgram compiled;
  compiled.host = program.host;
  compiled.objectFormat = "x86_64-elf";
  if (kernels.empty())
    return compiled;
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module, emit(context));
  XS_RETURN_IF_ERROR(lowerSimtForHost(*module, kernels, dialect));
  XS_ASSIGN_OR_RETURN(std::string object, compileHostModule(*module, host));
  compiled.objects.push_back(std::move(object));
  return compiled;
}

} // namespace xs
