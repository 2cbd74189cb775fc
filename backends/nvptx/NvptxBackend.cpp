#include "backends/nvptx/NvptxBackend.h"

#include <set>

#include "backends/common/KernelABI.h"
#include "backends/common/KernelEmitter.h"
#include "backends/nvptx/NvptxTarget.h"
#include "backends/nvptx/PtxCompiler.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/raw_ostream.h"

namespace xs {

namespace {

PtxOptions ptxOptions(const NvptxOptions &options) {
  return PtxOptions{options.limits.arch, options.optLevel};
}

/// Launch bounds: every kernel runs in blocks of exactly its variant's lanes
/// (HostLaunchVariant::lanes), which `.reqntid` tells ptxas, so that it
/// budgets registers for that many threads rather than for 1024; the code
/// takes that count as a constant (NvptxTarget::laneCount), and the driver
/// refuses a launch with any other.
void annotateLaunchBounds(const ProgramPlan &program, llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::NamedMDNode *annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  std::set<std::string> done;
  for (const HostStep &step : program.host.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    for (const HostLaunchVariant &variant : step.variants) {
      for (const std::string &symbol : launchSymbols(variant)) {
        llvm::Function *kernel = module.getFunction(nvptxSymbol(symbol));
        if (kernel == nullptr || !done.insert(symbol).second)
          continue;
        annotations->addOperand(llvm::MDNode::get(
            context,
            {llvm::ValueAsMetadata::get(kernel), llvm::MDString::get(context, "reqntidx"),
             llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                 llvm::Type::getInt32Ty(context), static_cast<uint64_t>(variant.lanes)))}));
      }
    }
  }
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
  annotateLaunchBounds(program, *module);
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
