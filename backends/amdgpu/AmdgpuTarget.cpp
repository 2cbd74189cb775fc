#include "backends/amdgpu/AmdgpuTarget.h"

#include "backends/amdgpu/AmdgpuLaneOps.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace xs {

using namespace amdgpu;

namespace {

/// Byte offsets in hsa_kernel_dispatch_packet_t (the HSA runtime
/// specification): workgroup_size_x (u16) and grid_size_x (u32, in
/// work-items).
constexpr unsigned kWorkgroupSizeXOffset = 4;
constexpr unsigned kGridSizeXOffset = 12;

/// v_permlanex16 exists from gfx10 (RDNA) on: "gfx10xx", "gfx11xx", ...
bool hasPermlaneX16(const std::string &arch) {
  return arch.size() >= 7 && arch.compare(0, 4, "gfx1") == 0;
}

llvm::Value *workItemRegister(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id) {
  return b.CreateZExt(b.CreateIntrinsic(id, {}, {}), b.getInt64Ty());
}

} // namespace

llvm::Function *AmdgpuTarget::createKernel(llvm::Module &module, const std::string &symbol,
                                           int64_t blockLanes, llvm::IRBuilder<> &b) {
  llvm::Function *kernel =
      beginKernel(module, symbol, llvm::CallingConv::AMDGPU_KERNEL, blockLanes, b);
  // Launch bounds: every workgroup has exactly the variant's lanes (the
  // runtime refuses another size), so registers are budgeted for that many
  // work-items; every workgroup of the grid is whole.
  std::string bounds = blockLanes > 0 ? strCat(blockLanes, ",", blockLanes) : std::string("1,1024");
  kernel->addFnAttr("amdgpu-flat-work-group-size", bounds);
  kernel->addFnAttr("uniform-work-group-size", "true");
  return kernel;
}

llvm::Value *AmdgpuTarget::launchBlockId(llvm::IRBuilder<> &b) {
  return workItemRegister(b, llvm::Intrinsic::amdgcn_workgroup_id_x);
}

llvm::Value *AmdgpuTarget::laneId(llvm::IRBuilder<> &b) {
  return workItemRegister(b, llvm::Intrinsic::amdgcn_workitem_id_x);
}

llvm::Value *AmdgpuTarget::dispatchField(llvm::IRBuilder<> &b, unsigned offset, llvm::Type *type,
                                         const char *name) {
  llvm::Value *packet = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_dispatch_ptr, {}, {});
  llvm::Value *field = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), packet, offset);
  llvm::LoadInst *value =
      b.CreateAlignedLoad(type, field, llvm::Align(type->getPrimitiveSizeInBits() / 8), name);
  value->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(b.getContext(), {}));
  return b.CreateZExt(value, b.getInt64Ty());
}

llvm::Value *AmdgpuTarget::launchLanes(llvm::IRBuilder<> &b) {
  return dispatchField(b, kWorkgroupSizeXOffset, b.getInt16Ty(), "workgroup.size");
}

llvm::Value *AmdgpuTarget::launchBlockCount(llvm::IRBuilder<> &b) {
  // Grids are whole workgroups (uniform-work-group-size).
  return b.CreateUDiv(dispatchField(b, kGridSizeXOffset, b.getInt32Ty(), "grid.size"),
                      launchLanes(b), "workgroups");
}

void AmdgpuTarget::emitBlockBarrier(llvm::IRBuilder<> &b) {
  // As HIP's __syncthreads: LDS and global writes before the barrier are
  // seen by the workgroup's work-items after it.
  b.CreateFence(llvm::AtomicOrdering::Release, b.getContext().getOrInsertSyncScopeID("workgroup"));
  b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
  b.CreateFence(llvm::AtomicOrdering::Acquire, b.getContext().getOrInsertSyncScopeID("workgroup"));
}

void AmdgpuTarget::emitGlobalFence(llvm::IRBuilder<> &b) {
  b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent,
                b.getContext().getOrInsertSyncScopeID("agent"));
}

llvm::Value *AmdgpuTarget::bpermuteXor(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) {
  // ds_bpermute reads the word of the lane whose index, times 4, is the
  // address: lane ^ laneMask within the wavefront.
  int64_t wave = description().warpWidth;
  llvm::Value *lane = b.CreateTrunc(laneId(b), b.getInt32Ty());
  llvm::Value *source = b.CreateAnd(b.CreateXor(lane, b.getInt32(static_cast<uint32_t>(laneMask))),
                                    b.getInt32(static_cast<uint32_t>(wave - 1)));
  return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {b.CreateShl(source, 2), word});
}

llvm::Value *AmdgpuTarget::dppMove(llvm::IRBuilder<> &b, llvm::Value *word, int control) {
  return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_update_dpp, {b.getInt32Ty()},
                           {llvm::PoisonValue::get(b.getInt32Ty()), word, b.getInt32(control),
                            b.getInt32(kDppAllRows), b.getInt32(kDppAllBanks), b.getTrue()});
}

llvm::Value *AmdgpuTarget::readHalfOpposite(llvm::IRBuilder<> &b, llvm::Value *word) {
  // Both reads are uniform (scalar registers); each half takes the other's.
  llvm::Value *low =
      b.CreateIntrinsic(llvm::Intrinsic::amdgcn_readlane, {b.getInt32Ty()}, {word, b.getInt32(0)});
  llvm::Value *high =
      b.CreateIntrinsic(llvm::Intrinsic::amdgcn_readlane, {b.getInt32Ty()}, {word, b.getInt32(32)});
  llvm::Value *upper = b.CreateICmpNE(b.CreateAnd(laneId(b), b.getInt64(32)), b.getInt64(0));
  return b.CreateSelect(upper, low, high);
}

llvm::Value *AmdgpuTarget::shuffleXorWord(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) {
  if (shuffles_ == AmdgpuShuffles::Bpermute)
    return bpermuteXor(b, word, laneMask);
  // The steps ascend (butterfliesAscend): before the step of distance d,
  // each aligned group of d lanes agrees, so a mirror within a row of 2d
  // lanes reaches the partner group as well as the xor would.
  switch (laneMask) {
  case 1:
    return dppMove(b, word, kDppQuadPermXor1);
  case 2:
    return dppMove(b, word, kDppQuadPermXor2);
  case 4:
    return dppMove(b, word, kDppRowHalfMirror);
  case 8:
    return dppMove(b, word, kDppRowMirror);
  case 16:
    if (hasPermlaneX16(arch_))
      // Lane i of each row of 16 reads lane i of the other row of its 32.
      return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_permlanex16, {b.getInt32Ty()},
                               {llvm::PoisonValue::get(b.getInt32Ty()), word,
                                b.getInt32(kPermlaneIdentityLow), b.getInt32(kPermlaneIdentityHigh),
                                b.getFalse(), b.getFalse()});
    return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_swizzle, {},
                             {word, b.getInt32(kSwizzleXor16)});
  case 32:
    return readHalfOpposite(b, word);
  default:
    return bpermuteXor(b, word, laneMask);
  }
}

} // namespace xs
