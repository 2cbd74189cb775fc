#include "backends/nvptx/PtxCompiler.h"

#include <mutex>

#include "backends/common/GpuCodegen.h"
#include "backends/nvptx/NvidiaTargetDescription.h"
#include "ir/Diagnostics.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

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
  XS_RETURN_IF_ERROR(optimizeGpuModule(module, *machine, options.optLevel, "the NVPTX module"));
  return generateMachineCode(module, *machine, llvm::CodeGenFileType::AssemblyFile,
                             "the NVPTX module");
}

} // namespace xs
