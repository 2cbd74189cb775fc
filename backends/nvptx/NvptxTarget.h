#ifndef XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H
#define XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H

// The Target of the common emitter for NVIDIA GPUs (KernelABI.h): a kernel is
//   .entry SYMBOL(void *const *buffers, int64_t *dims, int64_t blockBegin)
// with both arrays in device memory; CUDA block ctaid.x runs plan block
// blockBegin + ctaid.x (grids past 2^31 - 1 blocks are several launches);
// lanes are the block's threads. What GPUs share (block buffers in dynamic
// shared memory, warp butterflies, the cooperative kernel's grid barrier)
// is SimtTarget's; here are NVIDIA's special registers (tid.x, ctaid.x,
// ntid.x, nctaid.x), bar.sync, membar.gl and shfl.sync.bfly.

#include <string>

#include "backends/common/SimtTarget.h"

namespace xs {

class NvptxTarget : public SimtTarget {
public:
  using SimtTarget::SimtTarget;

  std::string triple() const override;
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
};

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H
