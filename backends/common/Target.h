#ifndef XSTITCH_BACKENDS_COMMON_TARGET_H
#define XSTITCH_BACKENDS_COMMON_TARGET_H

// The Target interface: what the common emitter asks of a backend. The
// emitter is written once against it; nvptx, amdgpu and x86 implement it.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/common/TypeLowering.h"
#include "transforms/TargetDescription.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace xs {

/// Merges two partial states of a cross-lane reduction into one.
using LaneCombine = std::function<std::vector<llvm::Value *>(
    llvm::IRBuilder<> &, llvm::ArrayRef<llvm::Value *>, llvm::ArrayRef<llvm::Value *>)>;
/// The most values a cross-lane reduction's state has.
inline constexpr size_t kMaxLaneStateValues = 2;

/// Adds two partial sums of a scan across lanes (scalars of one type).
using LaneAdd =
    std::function<llvm::Value *(llvm::IRBuilder<> &b, llvm::Value *lhs, llvm::Value *rhs)>;

/// A warp's scan as one lane sees it (Target::emitWarpScan).
struct WarpScan {
  llvm::Value *prefix = nullptr; // the sum over the lanes before this one, or through it
  llvm::Value *total = nullptr;  // the sum over the whole warp, the same in every lane
};

class Target {
public:
  virtual ~Target() = default;

  virtual const TargetDescription &description() const = 0;
  /// How values round to bf16 in this target's kernels (TypeLowering.h).
  virtual BFloatRounding bfloatRounding() const { return BFloatRounding::Integer; }
  virtual std::string triple() const = 0;
  virtual std::string dataLayout() const = 0;

  /// Creates the kernel function for one launch variant with this target's
  /// ABI (KernelABI.h) and positions `b` at its entry. The emitter then asks
  /// for block ids and the argument values through the methods below.
  /// `blockLanes`: the lanes every block of it is launched with
  /// (HostLaunchVariant::lanes), 0 where unknown.
  virtual llvm::Function *createKernel(llvm::Module &module, const std::string &symbol,
                                       int64_t blockLanes, llvm::IRBuilder<> &b) = 0;
  /// Emits the loop (CPU) or id computation (GPU) over this invocation's
  /// blocks; `body` is called with the block id and emits one block's work.
  virtual void emitBlockLoop(llvm::IRBuilder<> &b,
                             const std::function<void(llvm::Value *blockId)> &body) = 0;
  /// Pointer to argument buffer `index` (kernel-argument order).
  virtual llvm::Value *bufferArg(llvm::IRBuilder<> &b, int index) = 0;
  /// The value of HostPlan::symbols[index] as i64.
  virtual llvm::Value *dimArg(llvm::IRBuilder<> &b, int index) = 0;
  /// The address of element `index` of the dims array (KernelABI.h): the
  /// run's status word after the symbols.
  virtual llvm::Value *dimSlot(llvm::IRBuilder<> &b, int index) = 0;
  /// The lane id within the block and the number of lanes (CPU: 0 and 1 —
  /// lanes are SIMD vectors made by the loop vectorizer).
  virtual llvm::Value *laneId(llvm::IRBuilder<> &b) = 0;
  virtual llvm::Value *laneCount(llvm::IRBuilder<> &b) = 0;
  /// Ends a stage: all lanes of the block see each other's writes after it.
  virtual void emitBlockBarrier(llvm::IRBuilder<> &b) = 0;
  /// Every phase of a variant is a function of its own (phaseSymbol() in
  /// ir/HostPlan.h), run one after another over the whole grid: the
  /// runtime's rounds are the grid barrier. True when the target also
  /// compiles a variant of several phases into one cooperative kernel
  /// (cooperativeSymbol()): its blocks loop over the grid
  /// (emitGridStrideLoop) and wait for each other between phases
  /// (emitGridBarrier), which holds only when every block it is launched
  /// with is resident at once (GPUs: a cooperative launch, sized by the
  /// kernel's occupancy). False on x86.
  virtual bool hasGridBarrier() const = 0;
  /// The cooperative kernel's loop over the blocks [0, grid): this
  /// invocation's share of them, with a block barrier after each (its
  /// block buffers are then free for the next). Only when hasGridBarrier().
  virtual void emitGridStrideLoop(llvm::IRBuilder<> &b, llvm::Value *grid,
                                  const std::function<void(llvm::Value *blockId)> &body) = 0;
  /// Ends a phase inside the cooperative kernel: every block of the launch
  /// waits until all have arrived, and then sees their writes. `barrierArg`
  /// is the position in `buffers` (KernelABI.h) of the launch's barrier
  /// word. Only when hasGridBarrier().
  virtual void emitGridBarrier(llvm::IRBuilder<> &b, int barrierArg) = 0;
  /// Per-block scratch of `bytes` bytes (shared memory on GPUs, an aligned
  /// stack or per-task buffer on CPU), aligned to the vector width.
  virtual llvm::Value *allocateBlockBuffer(llvm::IRBuilder<> &b, llvm::Type *elementType,
                                           llvm::Value *elements) = 0;
  /// Combines `state` (up to kMaxLaneStateValues scalars of up to 64 bits,
  /// e.g. argmax's value and index) across the block's lanes with
  /// `combine`, which merges two states; every lane gets the result (CPU:
  /// the state as it is, lanes are one).
  virtual std::vector<llvm::Value *> emitCrossLaneReduce(llvm::IRBuilder<> &b,
                                                         llvm::ArrayRef<llvm::Value *> state,
                                                         const LaneCombine &combine) = 0;
  /// The same over the lanes of each warp only (ThreadMapping::rowLanes:
  /// a block packing rows a warp each); every lane gets its warp's result,
  /// and lanes of other warps take no part (no block barrier).
  virtual std::vector<llvm::Value *> emitWarpReduce(llvm::IRBuilder<> &b,
                                                    llvm::ArrayRef<llvm::Value *> state,
                                                    const LaneCombine &combine) = 0;
  /// The running sums of `value` (a scalar of up to 64 bits) over the
  /// lanes of each warp in lane order (ThreadMapping::rowLanes: a warp
  /// walks a scan's line a tile at a time); `exclusive` leaves out the
  /// lane's own value (`zero` for the first lane). Every lane of the warp
  /// takes part. CPU: lanes are one.
  virtual WarpScan emitWarpScan(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *zero,
                                bool exclusive, const LaneAdd &add) = 0;
  /// Marks an inner loop for vectorization (CPU: loop metadata);
  /// `constantTrips` is its iteration count when known, else 0;
  /// `vectorWidth` the lanes to vectorize with, or 0 for the vectorizer's
  /// own choice (see narrowVectorWidth).
  virtual void annotateInnerLoop(llvm::BranchInst *latch, int64_t constantTrips,
                                 int64_t vectorWidth = 0) = 0;
  /// Marks a loop over rows, row groups, tiles or blocks whose body holds the
  /// vector work: once a short constant row is unrolled, vectorizing the
  /// rows instead would read each column with a gather, and unrolling it
  /// only copies the inner loops (layernorm_bwd's rows per block unrolled
  /// by 3 to 6 made its code a quarter larger and its compile slower, at the
  /// same speed). CPU: loop metadata disabling the vectorizer and unrolling.
  virtual void annotateRowLoop(llvm::BranchInst *latch) = 0;
};

/// Marks a kernel's buffers and dims arrays (arguments 0 and 1, KernelABI.h):
/// the kernel only reads them and never writes memory that overlaps them, so
/// they are noalias and readonly; the data buffers are not marked (inputs and
/// outputs are distinct, but nothing checks it).
inline void markArgumentArrays(llvm::Function *kernel) {
  for (unsigned i = 0; i < 2; ++i) {
    kernel->addParamAttr(i, llvm::Attribute::NoAlias);
    kernel->addParamAttr(i, llvm::Attribute::ReadOnly);
    kernel->addParamAttr(i, llvm::Attribute::NoCapture);
  }
}

/// Whether `laneCount` (Target::laneCount) is the constant 1: the CPU, whose
/// loops stay as they are instead of being split over lanes.
inline bool isSingleLane(llvm::Value *laneCount) {
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(laneCount);
  return constant && constant->isOne();
}

/// Element `index` of a kernel's buffers array (KernelABI.h): a pointer,
/// loaded as `pointerType` (null: a generic pointer).
inline llvm::LoadInst *loadBufferPointer(llvm::IRBuilder<> &b, llvm::Value *buffers, int index,
                                         llvm::Type *pointerType = nullptr) {
  llvm::Type *ptr = b.getPtrTy();
  llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptr, buffers, index);
  return b.CreateLoad(pointerType ? pointerType : ptr, slot, "buffer" + std::to_string(index));
}

/// Element `index` of a kernel's dims array (KernelABI.h): an i64.
inline llvm::Value *loadDim(llvm::IRBuilder<> &b, llvm::Value *dims, int index) {
  llvm::Value *slot = b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), dims, index);
  return b.CreateLoad(b.getInt64Ty(), slot, "dim" + std::to_string(index));
}

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_TARGET_H
