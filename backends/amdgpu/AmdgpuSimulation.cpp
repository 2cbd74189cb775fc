#include "backends/amdgpu/AmdgpuSimulation.h"

#include "backends/amdgpu/AmdgpuLaneOps.h"
#include "backends/x86/SimtSimulation.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace xs {

namespace {

/// The integer constant of `call`'s operand `index`, or -1 where it is not
/// one.
int64_t constantOperand(llvm::IntrinsicInst *call, unsigned index) {
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(index));
  return constant != nullptr ? constant->getSExtValue() : -1;
}

/// The lane quad_perm `control` (two bits per lane of the quad) makes
/// `lane` read.
llvm::Value *quadPermSource(llvm::IRBuilder<> &b, llvm::Value *lane, int64_t control) {
  llvm::Value *shift = b.CreateShl(b.CreateAnd(lane, 3), 1);
  llvm::Value *select =
      b.CreateAnd(b.CreateLShr(b.getInt32(static_cast<uint32_t>(control)), shift), 3);
  return b.CreateOr(b.CreateAnd(lane, ~3u), select);
}

/// The lane a DPP move makes `lane` read (modulo the wavefront), for the
/// controls that read within the row and write every row and bank; null for
/// another.
llvm::Value *dppSource(llvm::IntrinsicInst *call, llvm::IRBuilder<> &b, llvm::Value *lane) {
  int64_t control = constantOperand(call, 2);
  if (constantOperand(call, 3) != amdgpu::kDppAllRows ||
      constantOperand(call, 4) != amdgpu::kDppAllBanks)
    return nullptr;
  if (control >= 0 && control <= amdgpu::kDppQuadPermLast)
    return quadPermSource(b, lane, control);
  if (control == amdgpu::kDppRowMirror) // lane 15 - i of its row of 16
    return b.CreateXor(lane, 15);
  if (control == amdgpu::kDppRowHalfMirror) // lane 7 - i of its half-row
    return b.CreateXor(lane, 7);
  return nullptr;
}

/// The lane ds_swizzle's bit-mode `pattern` makes `lane` read: ((lane &
/// and) | or) ^ xor within each 32 lanes.
llvm::Value *swizzleSource(llvm::IRBuilder<> &b, llvm::Value *lane, int64_t pattern) {
  uint32_t andMask = static_cast<uint32_t>(pattern) & 0x1F;
  uint32_t orMask = (static_cast<uint32_t>(pattern) >> 5) & 0x1F;
  uint32_t xorMask = (static_cast<uint32_t>(pattern) >> 10) & 0x1F;
  llvm::Value *within = b.CreateXor(b.CreateOr(b.CreateAnd(lane, andMask), orMask), xorMask);
  return b.CreateOr(b.CreateAnd(lane, ~31u), within);
}

/// The lane v_permlanex16 makes `lane` read: lane select[i] (four bits per
/// lane: `low` for lanes 0-7 of the row, `high` for 8-15) of the other row
/// of 16 in its 32 lanes.
llvm::Value *permlaneX16Source(llvm::IRBuilder<> &b, llvm::Value *lane, llvm::Value *low,
                               llvm::Value *high) {
  llvm::Value *inRow = b.CreateAnd(lane, 15);
  llvm::Value *upperHalf = b.CreateICmpUGE(inRow, b.getInt32(8));
  llvm::Value *selects = b.CreateSelect(upperHalf, high, low);
  llvm::Value *shift = b.CreateShl(b.CreateAnd(inRow, 7), 2);
  llvm::Value *select = b.CreateAnd(b.CreateLShr(selects, shift), 15);
  llvm::Value *otherRow = b.CreateXor(b.CreateAnd(lane, ~15u), 16);
  return b.CreateOr(otherRow, select);
}

/// AMD's work-item registers, dispatch packet, s_barrier and lane exchanges
/// (ds_bpermute, DPP row permutes, ds_swizzle, v_permlanex16, readlane) on
/// the lane's context. Lane exchanges read another lane of the wavefront
/// through the scheduler, whose source index is taken modulo the wavefront.
bool lowerAmdgcnIntrinsic(llvm::IntrinsicInst *call, llvm::IRBuilder<> &b, const SimtLane &lane,
                          llvm::Value *&replacement) {
  llvm::Type *i32 = b.getInt32Ty();
  auto readLane = [&](llvm::Value *value, llvm::Value *source) {
    replacement = b.CreateCall(lane.shuffleIndex, {lane.context, value, source});
    return true;
  };
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
    return readLane(call->getArgOperand(1), b.CreateLShr(call->getArgOperand(0), b.getInt32(2)));
  case llvm::Intrinsic::amdgcn_update_dpp: {
    if (!call->getType()->isIntegerTy(32))
      return false;
    llvm::Value *source = dppSource(call, b, b.CreateTrunc(lane.laneId, i32));
    return source != nullptr && readLane(call->getArgOperand(1), source);
  }
  case llvm::Intrinsic::amdgcn_ds_swizzle: {
    int64_t pattern = constantOperand(call, 1);
    if (pattern < 0 || (pattern & amdgpu::kSwizzleQuadMode) != 0)
      return false;
    return readLane(call->getArgOperand(0),
                    swizzleSource(b, b.CreateTrunc(lane.laneId, i32), pattern));
  }
  case llvm::Intrinsic::amdgcn_permlanex16:
    if (!call->getType()->isIntegerTy(32))
      return false;
    return readLane(call->getArgOperand(1),
                    permlaneX16Source(b, b.CreateTrunc(lane.laneId, i32), call->getArgOperand(2),
                                      call->getArgOperand(3)));
  case llvm::Intrinsic::amdgcn_readlane:
    if (!call->getType()->isIntegerTy(32))
      return false;
    return readLane(call->getArgOperand(0), call->getArgOperand(1));
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
