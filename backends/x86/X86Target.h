#ifndef XSTITCH_BACKENDS_X86_X86TARGET_H
#define XSTITCH_BACKENDS_X86_X86TARGET_H

// The Target of the common emitter for x86 CPUs: a kernel is
//   void SYMBOL(void *const *buffers, int64_t *dims,
//               int64_t blockBegin, int64_t blockEnd)
// (KernelABI.h) looping over its blocks; a block has one lane whose inner
// loops the loop vectorizer turns into SIMD code; block buffers are aligned
// stack arrays; barriers and cross-lane reductions are no-ops.

#include <string>

#include "backends/common/Target.h"

namespace xs {

class X86Target : public Target {
public:
  /// `dataLayout` comes from the TargetMachine the code is compiled with.
  /// `bfloatRounding`: Native where the CPU converts f32 to bf16 in one
  /// instruction and the kernels flush subnormals (TypeLowering.h).
  X86Target(TargetDescription description, std::string cpu, std::string features,
            std::string dataLayout, BFloatRounding bfloatRounding = BFloatRounding::Integer)
      : description_(std::move(description)), cpu_(std::move(cpu)), features_(std::move(features)),
        dataLayout_(std::move(dataLayout)), bfloatRounding_(bfloatRounding) {}

  /// The target triple of every x86 kernel module (ELF objects).
  static constexpr const char *kTriple = "x86_64-pc-linux-gnu";

  const TargetDescription &description() const override { return description_; }
  BFloatRounding bfloatRounding() const override { return bfloatRounding_; }
  std::string triple() const override;
  std::string dataLayout() const override;

  llvm::Function *createKernel(llvm::Module &module, const std::string &symbol, int64_t blockLanes,
                               llvm::IRBuilder<> &b) override;
  void emitBlockLoop(llvm::IRBuilder<> &b,
                     const std::function<void(llvm::Value *blockId)> &body) override;
  llvm::Value *bufferArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimArg(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *dimSlot(llvm::IRBuilder<> &b, int index) override;
  llvm::Value *laneId(llvm::IRBuilder<> &b) override;
  llvm::Value *laneCount(llvm::IRBuilder<> &b) override;
  void emitBlockBarrier(llvm::IRBuilder<> &b) override;
  bool hasGridBarrier() const override { return false; }
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

private:
  TargetDescription description_;
  std::string cpu_;
  std::string features_;
  std::string dataLayout_;
  BFloatRounding bfloatRounding_;
  llvm::Function *kernel_ = nullptr; // the kernel being emitted
};

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_X86TARGET_H
