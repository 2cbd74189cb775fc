#ifndef XSTITCH_BACKENDS_COMMON_SIMTTARGET_H
#define XSTITCH_BACKENDS_COMMON_SIMTTARGET_H

// What the GPU targets share: a kernel
//   SYMBOL(void *const *buffers, int64_t *dims, int64_t blockBegin)
// (KernelABI.h) whose GPU block b runs plan block blockBegin + b with the
// block's threads as lanes; block buffers carved from the kernel's dynamic
// shared memory (address space 3: NVIDIA shared memory, AMD LDS);
// cross-lane reductions as butterflies over each warp (wavefront), then one
// value per warp through shared memory; a cooperative kernel's blocks stride
// over the plan's blocks and meet at a grid barrier (a counter in global
// memory, kGridBarrierFunction). A vendor's target supplies its special
// registers, barriers, fences and the 32-bit butterfly shuffle.

#include <string>

#include "backends/common/Target.h"

namespace xs {

/// The module-internal function a cooperative kernel calls at each grid
/// barrier, `void (ptr buffers, i64 barrierArg)`: the SIMT simulations
/// replace its calls with their scheduler's grid barrier.
inline constexpr const char *kGridBarrierFunction = "xs_grid_barrier";

class SimtTarget : public Target {
public:
  /// `dataLayout` comes from the target machine of the vendor's compiler.
  SimtTarget(TargetDescription description, std::string dataLayout)
      : description_(std::move(description)), dataLayout_(std::move(dataLayout)) {}

  const TargetDescription &description() const override { return description_; }
  std::string dataLayout() const override { return dataLayout_; }

  void emitBlockLoop(llvm::IRBuilder<> &b,
                     const std::function<void(llvm::Value *blockId)> &body) override;
  llvm::Value *bufferArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimSlot(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *laneCount(llvm::IRBuilder<> &b) override;
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
  WarpScan emitWarpScan(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *zero, bool exclusive,
                        const LaneAdd &add) override;
  void annotateInnerLoop(llvm::BranchInst *latch, int64_t constantTrips,
                         int64_t vectorWidth) override;
  void annotateRowLoop(llvm::BranchInst *latch) override;

protected:
  /// Creates the kernel function `name` with the ABI's arguments and
  /// calling convention `callingConv`, and positions `b` at its entry.
  llvm::Function *beginKernel(llvm::Module &module, const std::string &name,
                              llvm::CallingConv::ID callingConv, int64_t blockLanes,
                              llvm::IRBuilder<> &b);

  /// The block's index in the launch (i64).
  virtual llvm::Value *launchBlockId(llvm::IRBuilder<> &b) = 0;
  /// Blocks in the launch (i64; cooperative kernels read it).
  virtual llvm::Value *launchBlockCount(llvm::IRBuilder<> &b) = 0;
  /// Threads of the block as the launch gave them (i64).
  virtual llvm::Value *launchLanes(llvm::IRBuilder<> &b) = 0;
  /// Makes this thread's writes to global memory visible to every block of
  /// the launch before its later ones (the grid barrier's fences).
  virtual void emitGlobalFence(llvm::IRBuilder<> &b) = 0;
  /// The i32 `word` of lane (laneId ^ laneMask) of the warp; every lane of
  /// the warp takes part. Where butterfliesAscend(), the steps before this
  /// one combined each group of laneMask lanes (aligned), so any lane of the
  /// partner group holds a combination of that whole group: a vendor may
  /// read whichever lane its cheapest instruction reaches.
  virtual llvm::Value *shuffleXorWord(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) = 0;
  /// Whether the butterflies step from lane distance 1 upward (AMD's row
  /// permutes reach mirrored lanes, not xor partners) rather than from half
  /// the warp down.
  virtual bool butterfliesAscend() const { return false; }

  llvm::Function *kernel() const { return kernel_; }

private:
  /// `state` combined over the lanes of each warp (every lane gets its
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
  int64_t blockLanes_ = 0;              // the kernel's launch lanes; 0: read from the launch
  llvm::Value *sharedOffset_ = nullptr; // i64 bytes of dynamic shared memory used
};

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_SIMTTARGET_H
