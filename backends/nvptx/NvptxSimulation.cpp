#include "backends/nvptx/NvptxSimulation.h"

#include <set>

#include "backends/nvptx/SimtLowering.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/LLVMContext.h"

namespace xs {

absl::StatusOr<CompiledProgram> compileNvptxSimulation(const ProgramPlan &program,
                                                       const NvptxOptions &nvptx,
                                                       const X86Options &host) {
  // Steps that run another kernel's code (the same plan but for names)
  // name its symbols again.
  std::vector<SimtKernel> kernels;
  std::set<std::string> seen;
  for (const HostStep &step : program.host.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    for (const HostLaunchVariant &variant : step.variants) {
      auto sharedBytes = [&](const DimExpr &bytes) {
        return bytes.constantValue().value_or(nvptx.limits.sharedBytesPerBlock);
      };
      for (int phase = 0; phase < variant.phases; ++phase)
        if (std::string symbol = phaseSymbol(variant.symbol, phase); seen.insert(symbol).second)
          kernels.push_back({symbol, variant.lanes, sharedBytes(variant.blockBufferBytes(phase)),
                             /*cooperative=*/false});
      if (std::string symbol = cooperativeSymbol(variant.symbol);
          variant.cooperative && seen.insert(symbol).second)
        kernels.push_back({symbol, variant.lanes, sharedBytes(variant.totalBlockBufferBytes()),
                           /*cooperative=*/true});
    }
  }
  CompiledProgram compiled;
  compiled.host = program.host;
  compiled.objectFormat = "x86_64-elf";
  if (kernels.empty())
    return compiled;
  llvm::LLVMContext context;
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> module,
                      emitNvptxModule(program, nvptx, context));
  XS_RETURN_IF_ERROR(lowerNvptxForHost(*module, kernels));
  XS_ASSIGN_OR_RETURN(std::string object, compileHostModule(*module, host));
  compiled.objects.push_back(std::move(object));
  return compiled;
}

} // namespace xs
