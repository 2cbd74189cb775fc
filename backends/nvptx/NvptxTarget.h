#ifndef XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H
#define XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H

// The Target of the common emitter for NVIDIA GPUs (KernelABI.h): a kernel is
//   .entry SYMBOL(void *const *buffers, int64_t *dims, int64_t blockBegin)
// with both arrays in device memory; CUDA block ctaid.x runs plan block
// blockBegin + ctaid.x (grids past 2^31 - 1 blocks are several launches);
// lanes are the block's threads; block buffers are carved from the kernel's
// dynamic shared memory; cross-lane reductions are warp butterfly shuffles,
// then one value per warp through shared memory. A variant of several
// phases is a kernel per phase and one cooperative kernel: its CUDA blocks
// stride over the plan's blocks and meet between phases at a grid barrier
// (a counter in global memory, kGridBarrierFunction), which holds when the
// runtime launches no more blocks than stay resident at once.

#include <string>

#include "backends/common/Target.h"

namespace xs {

/// The module-internal function a cooperative kernel calls at each grid
/// barrier, `void (ptr buffers, i64 barrierArg)`: the NVPTX simulation
/// replaces its calls with its scheduler's grid barrier.
inline constexpr const char *kGridBarrierFunction = "xs_grid_barrier";

class NvptxTarget : public Target {
public:
  /// `dataLayout` comes from the NVPTX target machine (PtxCompiler.h).
  NvptxTarget(TargetDescription description, std::string dataLayout)
      : description_(std::move(description)), dataLayout_(std::move(dataLayout)) {}

  const TargetDescription &description() const override { return description_; }
  std::string triple() const override;
  std::string dataLayout() const override { return dataLayout_; }

  llvm::Function *createKernel(llvm::Module &module, const std::string &symbol,
                               int64_t blockLanes, llvm::IRBuilder<> &b) override;
  void emitBlockLoop(llvm::IRBuilder<> &b,
                     const std::function<void(llvm::Value *blockId)> &body) override;
  llvm::Value *bufferArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimSlot(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *laneId(llvm::IRBuilder<> &b) override;
  llvm::Value *laneCount(llvm::IRBuilder<> &b) override;
  void emitBlockBarrier(llvm::IRBuilder<> &b) override;
  bool hasGridBarrier() const override { return true; }
  void emitGridStrideLoop(llvm::IRBuilder<> &b, llvm::Value *grid,
                          const std::function<void(llvm::Value *blockId)> &body) override;
  void emitGridBarrier(llvm::IRBuilder<> &b, int barrierArg) override;
  llvm::Value *allocateBlockBuffer(llvm::IRBuilder<> &b, llvm::Type *elementType,
                                   llvm::Value *elements) override;
  std::vector<llvm::Value *> emitCrossLaneReduce(llvm::IRBuilder<> &b,
                                                 llvm::ArrayRef<llvm::Value *> state,
                                                 const LaneCombine &combine) override;
  std::vector<llvm::Value *> emitWarpReduce(llvm::IRBuilder<> &b,
                                            llvm::ArrayRef<llvm::Value *> state,
                                            const LaneCombine &combine) override;
  void annotateInnerLoop(llvm::BranchInst *latch, int64_t constantTrips,
                         int64_t vectorWidth) override;
  void annotateRowLoop(llvm::BranchInst *latch) override;

private:
  /// `state` combined over the 32 lanes of each warp (every lane gets its
  /// warp's result).
  std::vector<llvm::Value *> warpReduce(llvm::IRBuilder<> &b, std::vector<llvm::Value *> state,
                                        const LaneCombine &combine);
  /// The module's kGridBarrierFunction, created on first use.
  llvm::Function *gridBarrierFunction(llvm::Module &module);
  /// A butterfly shuffle of any scalar of up to 64 bits.
  llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *value, int laneMask);

  TargetDescription description_;
  std::string dataLayout_;
  llvm::Function *kernel_ = nullptr;    // the kernel being emitted
  int64_t blockLanes_ = 0;             // the kernel's launch lanes; 0: read %ntid.x
  llvm::Value *sharedOffset_ = nullptr; // i64 bytes of dynamic shared memory used
};

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_NVPTXTARGET_H
