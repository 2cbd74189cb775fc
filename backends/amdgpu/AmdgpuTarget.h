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
// agent-scope fences for the grid barrier, and the butterflies' lane
// exchanges (wave64 or wave32, from the target description).
//
// The butterflies step upward (1, 2, 4, ...), so that before the step of
// distance d every aligned group of d lanes holds one group's combination
// and any lane of the partner group will do. That lets each step use the
// cheapest instruction that reaches the partner group (AmdgpuShuffles::Dpp):
//   1, 2   DPP quad_perm [1,0,3,2] / [2,3,0,1]   (a modifier of the VALU op
//   4      DPP row_half_mirror (lane 7 - i)        that combines: LLVM folds
//   8      DPP row_mirror (lane 15 - i)            it into v_add_f32_dpp)
//   16     ds_swizzle xor 16 (gfx9; the LDS crossbar without a memory
//          access or an address), v_permlanex16 (gfx10 and later, VALU)
//   32     two v_readlane_b32 (lanes 0 and 32) and a select (wave64)
// AmdgpuShuffles::Bpermute uses ds_bpermute (an address per lane through
// the LDS crossbar) on every step, for comparison on a GPU.

#include <cstdint>
#include <string>

#include "backends/common/SimtTarget.h"

namespace xs {

/// The triple of every AMD GPU kernel module (HSA code objects).
inline constexpr const char *kAmdgpuTriple = "amdgcn-amd-amdhsa";

/// How the butterflies of cross-lane reductions exchange lanes' words.
enum class AmdgpuShuffles : uint8_t {
  Dpp,      // DPP row permutes, ds_swizzle or v_permlanex16, readlane
  Bpermute, // ds_bpermute on every step
};

class AmdgpuTarget : public SimtTarget {
public:
  /// `arch`: the LLVM processor ("gfx942"); it decides which lane
  /// instructions exist.
  AmdgpuTarget(TargetDescription description, std::string dataLayout, std::string arch,
               AmdgpuShuffles shuffles)
      : SimtTarget(std::move(description), std::move(dataLayout)), arch_(std::move(arch)),
        shuffles_(shuffles) {}

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
  bool butterfliesAscend() const override { return true; }
  /// ds_bpermute of lane ^ laneMask within the wavefront.
  llvm::Value *bpermuteXor(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask);
  /// DPP with control `control` on every row and bank (bound_ctrl: lanes
  /// whose source is outside the row read zero; none is, for these
  /// controls).
  llvm::Value *dppMove(llvm::IRBuilder<> &b, llvm::Value *word, int control);
  /// The word of lane ^ 32 where each half of the wavefront holds one word.
  llvm::Value *readHalfOpposite(llvm::IRBuilder<> &b, llvm::Value *word);
  /// A field of the HSA kernel dispatch packet, zero-extended to i64.
  llvm::Value *dispatchField(llvm::IRBuilder<> &b, unsigned offset, llvm::Type *type,
                             const char *name);

  std::string arch_;
  AmdgpuShuffles shuffles_;
};

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGET_H
