#include "backends/nvptx/NvptxSimulation.h"

#include "backends/common/KernelABI.h"
#include "backends/x86/SimtSimulation.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace xs {

namespace {

/// NVIDIA's special registers, bar.sync and shfl.sync.bfly on the lane's
/// context.
bool lowerNvvmIntrinsic(llvm::IntrinsicInst *call, llvm::IRBuilder<> &b, const SimtLane &lane,
                        llvm::Value *&replacement) {
  llvm::Type *i32 = b.getInt32Ty();
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x:
    replacement = b.CreateTrunc(lane.laneId, i32);
    return true;
  case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    replacement = b.CreateTrunc(lane.laneCount, i32);
    return true;
  case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    replacement = b.CreateTrunc(lane.blockId, i32);
    return true;
  case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    replacement = b.CreateTrunc(lane.blockCount, i32);
    return true;
  case llvm::Intrinsic::nvvm_barrier0:
    b.CreateCall(lane.barrier, {lane.context});
    return true;
  case llvm::Intrinsic::nvvm_shfl_sync_bfly_i32:
    replacement =
        b.CreateCall(lane.shuffleXor, {lane.context, call->getArgOperand(0), call->getArgOperand(1),
                                       call->getArgOperand(2), call->getArgOperand(3)});
    return true;
  default:
    return false;
  }
}

std::string nvptxFunctionName(std::string_view symbol) { return nvptxSymbol(symbol); }

} // namespace

absl::StatusOr<CompiledProgram> compileNvptxSimulation(const ProgramPlan &program,
                                                       const NvptxOptions &nvptx,
                                                       const X86Options &host) {
  std::vector<SimtKernel> kernels =
      simtKernelsOf(program, nvptxFunctionName, nvptx.limits.sharedBytesPerBlock);
  static const SimtDialect dialect{.name = "NVPTX",
                                   .intrinsicPrefix = "llvm.nvvm.",
                                   .kernelCallingConv = llvm::CallingConv::PTX_Kernel,
                                   .warpWidth = 32,
                                   .lower = lowerNvvmIntrinsic};
  return compileSimtSimulation(
      program, kernels,
      [&](llvm::LLVMContext &context) { return emitNvptxModule(program, nvptx, context); }, dialect,
      host);
}

} // namespace xs
