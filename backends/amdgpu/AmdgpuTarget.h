#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGET_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGET_H

// The Target of the common emitter for AMD GPUs (KernelABI.h): a kernel is
//   amdgpu_kernel SYMBOL(void *const *buffers, int64_t *dims, int64_t blockBegin)
// with both arrays in device memory; workgroup workgroup_id.x runs plan block
// blockBegin + workgroup_id.x with its work-items as lanes. What GPUs share
// (block buffers in dynamic LDS, butterflies over each wavefront, the
// cooperative kernel's grid barrier) is SimtTarget's; here are the work-item
// and workgroup ids, the dispatch packet (workgroup size and grid size where
// a kernel's block size is not a constant), s_barrier with workgroup fences,
// agent-scope fences for the grid barrier, and ds_bpermute for the
// butterflies (wave64 or wave32, from the target description).

#include <string>

#include "backends/common/SimtTarget.h"

namespace xs {

/// The triple of every AMD GPU kernel module (HSA code objects).
inline constexpr const char *kAmdgpuTriple = "amdgcn-amd-amdhsa";

class AmdgpuTarget : public SimtTarget {
public:
  using SimtTarget::SimtTarget;

  std::string triple() const override { return kAmdgpuTriple; }
  llvm::Function *createKernel(llvm::Module &module, const std::string &symbol, int64_t blockLanes,
                               llvm::IRBuilder<> &b) override;
  llvm::Value *laneId(llvm::IRBuilder<> &b) override;
  void emitBlockBarrier(llvm::IRBuilder<> &b) override;

private:
  llvm::Value *launchBlockId(llvm::IRBuilder<> &b) override;
  llvm::Value *launchBlockCount(llvm::IRBuilder<> &b) override;
  llvm::Value *launchLanes(llvm::IRBuilder<> &b) override;
  void emitGlobalFence(llvm::IRBuilder<> &b) override;
  llvm::Value *shuffleXorWord(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) override;
  /// A field of the HSA kernel dispatch packet, zero-extended to i64.
  llvm::Value *dispatchField(llvm::IRBuilder<> &b, unsigned offset, llvm::Type *type,
                             const char *name);
};

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGET_H
