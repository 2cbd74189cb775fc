#include "backends/amdgpu/AmdgpuSimulation.h"

#include "backends/x86/SimtSimulation.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace xs {

namespace {

/// AMD's work-item registers, dispatch packet, s_barrier and ds_bpermute on
/// the lane's context.
bool lowerAmdgcnIntrinsic(llvm::IntrinsicInst *call, llvm::IRBuilder<> &b, const SimtLane &lane,
                          llvm::Value *&replacement) {
  llvm::Type *i32 = b.getInt32Ty();
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::amdgcn_workitem_id_x:
    replacement = b.CreateTrunc(lane.laneId, i32);
    return true;
  case llvm::Intrinsic::amdgcn_workgroup_id_x:
    replacement = b.CreateTrunc(lane.blockId, i32);
    return true;
  case llvm::Intrinsic::amdgcn_dispatch_ptr:
    replacement = b.CreateAddrSpaceCast(lane.dispatchPacket, call->getType());
    return true;
  case llvm::Intrinsic::amdgcn_s_barrier:
    b.CreateCall(lane.barrier, {lane.context});
    return true;
  case llvm::Intrinsic::amdgcn_ds_bpermute:
    replacement =
        b.CreateCall(lane.shuffleIndex, {lane.context, call->getArgOperand(1),
                                         b.CreateLShr(call->getArgOperand(0), b.getInt32(2))});
    return true;
  default:
    return false;
  }
}

std::string amdgpuFunctionName(std::string_view symbol) { return std::string(symbol); }

} // namespace

absl::StatusOr<CompiledProgram> compileAmdgpuSimulation(const ProgramPlan &program,
                                                        const AmdgpuOptions &amdgpu,
                                                        const X86Options &host) {
  std::vector<SimtKernel> kernels =
      simtKernelsOf(program, amdgpuFunctionName, amdgpu.limits.ldsBytesPerBlock);
  SimtDialect dialect{.name = "AMDGPU",
                      .intrinsicPrefix = "llvm.amdgcn.",
                      .kernelCallingConv = llvm::CallingConv::AMDGPU_KERNEL,
                      .warpWidth = amdgpu.limits.waveWidth,
                      .lower = lowerAmdgcnIntrinsic};
  return compileSimtSimulation(
      program, kernels,
      [&](llvm::LLVMContext &context) { return emitAmdgpuModule(program, amdgpu, context); },
      dialect, host);
}

} // namespace xs
