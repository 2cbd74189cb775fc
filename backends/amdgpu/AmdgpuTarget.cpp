#include "backends/amdgpu/AmdgpuTarget.h"

#include "ir/Diagnostics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace xs {

namespace {

/// Byte offsets in hsa_kernel_dispatch_packet_t (the HSA runtime
/// specification): workgroup_size_x (u16) and grid_size_x (u32, in
/// work-items).
constexpr unsigned kWorkgroupSizeXOffset = 4;
constexpr unsigned kGridSizeXOffset = 12;

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

llvm::Value *AmdgpuTarget::shuffleXorWord(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) {
  // ds_bpermute reads the word of the lane whose index, times 4, is the
  // address: lane ^ laneMask within the wavefront.
  int64_t wave = description().warpWidth;
  llvm::Value *lane = b.CreateTrunc(laneId(b), b.getInt32Ty());
  llvm::Value *source = b.CreateAnd(b.CreateXor(lane, b.getInt32(static_cast<uint32_t>(laneMask))),
                                    b.getInt32(static_cast<uint32_t>(wave - 1)));
  return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {b.CreateShl(source, 2), word});
}

} // namespace xs
