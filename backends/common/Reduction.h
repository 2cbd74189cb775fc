#ifndef XSTITCH_BACKENDS_COMMON_REDUCTION_H
#define XSTITCH_BACKENDS_COMMON_REDUCTION_H

// One reduction op as the block emitters accumulate it (RowReductionEmitter.cpp,
// ColumnReductionEmitter.cpp): how it splits its operand's dims, its state,
// identity, step, merge and result. Accumulation follows
// ir/InterpretReduce.cpp: identities from docs/ir.md, NaN-propagating max
// and min, argmax/argmin keep the first extreme with NaN as the extreme.

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

#include "backends/common/GroupEmitter.h"
#include "backends/common/ScalarOps.h"
#include "backends/common/TypeLowering.h"
#include "ir/ValueFacts.h"

namespace xs {

/// How a reduction op splits its operand's dims, and its accumulation.
class Reduction {
public:
  /// `inRegisters`: the state is a loop-carried value, not a buffer
  /// element, so float max/min may use the flagged form (ScalarOps.h).
  /// `wideSums`: accumulate as columnAccumulationType() says (KernelPlan.h).
  /// `body` (with `inRegisters`): the kernel body, where softmax's maximum
  /// (ir/ValueFacts.h) takes the unflagged form.
  Reduction(const Operation &op, bool inRegisters, bool wideSums = false,
            const Function *body = nullptr)
      : op_(op) {
    const TensorType &operandType = op.operand(0)->type();
    reduced_.assign(static_cast<size_t>(operandType.rank()), false);
    isArg_ = op.info().rule == TypeRule::ArgReduce;
    flagged_ = inRegisters && !isArg_ && isFlaggedExtremum(op.kind(), type());
    unflagged_ = flagged_ && body && isSoftmaxMaximum(*body, op);
    flagged_ = flagged_ && !unflagged_;
    accumulate_ = wideSums && !isArg_ ? columnAccumulationType(op) : type();
    if (isArg_) {
      reduced_[static_cast<size_t>(op.intAttrOr("dim", 0))] = true;
    } else if (const Attribute *dims = op.attr("dims")) {
      for (int64_t d : dims->getIntList())
        reduced_[static_cast<size_t>(d)] = true;
    }
    for (size_t d = 0; d < reduced_.size(); ++d)
      (reduced_[d] ? reducedShape_ : keptShape_)
          .push_back(operandType.dim(static_cast<int64_t>(d)));
  }

  const Value *operand() const { return op_.operand(0); }
  OpKind kind() const { return op_.kind(); }
  ElementType type() const { return operand()->type().elementType(); }
  bool isArg() const { return isArg_; }
  /// True when the state is wider than the element type (wideSums).
  bool widened() const { return accumulate_ != type(); }
  const std::vector<bool> &reducedMask() const { return reduced_; }
  const std::vector<DimExpr> &reducedShape() const { return reducedShape_; }
  const std::vector<DimExpr> &keptShape() const { return keptShape_; }
  /// Position of the first reduced dim.
  size_t firstReduced() const {
    return static_cast<size_t>(std::find(reduced_.begin(), reduced_.end(), true) -
                               reduced_.begin());
  }
  /// True when the reduced dims form one contiguous run.
  bool contiguous() const {
    size_t first = firstReduced();
    size_t count = reducedShape_.size();
    for (size_t d = 0; d < reduced_.size(); ++d)
      if (reduced_[d] != (d >= first && d < first + count))
        return false;
    return true;
  }

  /// The operand index from the kept and the reduced parts, in dim order.
  std::vector<llvm::Value *> operandIndex(const std::vector<llvm::Value *> &kept,
                                          const std::vector<llvm::Value *> &reduced) const {
    std::vector<llvm::Value *> index;
    size_t k = 0, r = 0;
    for (bool isReduced : reduced_)
      index.push_back(isReduced ? reduced[r++] : kept[k++]);
    return index;
  }

  std::vector<llvm::Type *> stateTypes(llvm::LLVMContext &context) const {
    assert(!flagged_ && "flagged state is only carried in registers");
    std::vector<llvm::Type *> types{computeType(context, accumulate_)};
    if (isArg_)
      types.push_back(llvm::Type::getInt64Ty(context));
    return types;
  }

  /// The state before any element: the identity; for argmax/argmin the
  /// identity of max/min and index 0, which no element beats unless it is
  /// strictly beyond, so the first extreme (or 0) wins.
  std::vector<llvm::Value *> initial(llvm::IRBuilder<> &b) const {
    if (flagged_)
      return flaggedExtremumInitial(b, op_.kind(), type());
    if (!isArg_)
      return {reduceIdentity(b.getContext(), op_.kind(), accumulate_)};
    OpKind like = op_.kind() == OpKind::ArgMax ? OpKind::ReduceMax : OpKind::ReduceMin;
    return {reduceIdentity(b.getContext(), like, type()), b.getInt64(0)};
  }

  /// Adds element `value`, at position `position` along the reduced dim
  /// (argmax/argmin only).
  std::vector<llvm::Value *> step(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state,
                                  llvm::Value *value, llvm::Value *position) const {
    if (flagged_)
      return emitFlaggedExtremumStep(b, op_.kind(), state, value);
    if (unflagged_)
      return {emitUnflaggedMaximumStep(b, state[0], value)};
    if (!isArg_) {
      if (accumulate_ != type())
        value = b.CreateFPExt(value, computeType(b.getContext(), accumulate_));
      return {emitReduceStep(b, op_.kind(), accumulate_, state[0], value)};
    }
    llvm::Value *beats = emitArgBeats(b, type(), op_.kind() == OpKind::ArgMax, value, state[0]);
    return {b.CreateSelect(beats, value, state[0]), b.CreateSelect(beats, position, state[1])};
  }

  /// Whether combine() merges two states (all but the flagged form, which
  /// is only for vectorized loops).
  bool mergeable() const { return !flagged_; }

  /// Combines a state with another partial state of the same reduction.
  /// argmax/argmin: the better value wins, and of equal values (or two
  /// NaNs) the smaller index, which is the first extreme wherever the two
  /// states' elements lay in the row.
  std::vector<llvm::Value *> combine(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state,
                                     llvm::ArrayRef<llvm::Value *> other) const {
    assert(mergeable() && "flagged states are not merged");
    if (!isArg_)
      return {emitReduceStep(b, op_.kind(), accumulate_, state[0], other[0])};
    bool wantMax = op_.kind() == OpKind::ArgMax;
    llvm::Value *otherBeats = emitArgBeats(b, type(), wantMax, other[0], state[0]);
    llvm::Value *stateBeats = emitArgBeats(b, type(), wantMax, state[0], other[0]);
    llvm::Value *tie = b.CreateNot(b.CreateOr(otherBeats, stateBeats));
    llvm::Value *takeOther =
        b.CreateOr(otherBeats, b.CreateAnd(tie, b.CreateICmpSLT(other[1], state[1])));
    return {b.CreateSelect(takeOther, other[0], state[0]),
            b.CreateSelect(takeOther, other[1], state[1])};
  }

  llvm::Value *result(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state) const {
    if (flagged_)
      return emitFlaggedExtremumResult(b, op_.kind(), state);
    if (isArg_)
      return state[1];
    if (accumulate_ != type())
      return b.CreateFPTrunc(state[0], computeType(b.getContext(), type()));
    return state[0];
  }

private:
  const Operation &op_;
  bool isArg_ = false;
  bool flagged_ = false;
  bool unflagged_ = false;
  ElementType accumulate_;
  std::vector<bool> reduced_;
  std::vector<DimExpr> reducedShape_;
  std::vector<DimExpr> keptShape_;
};

/// Stores the dominant's value, then the group's other outputs of its shape
/// (which read the dominant back from memory).
void storeReduced(GroupEmission &group, llvm::Value *value, const std::vector<llvm::Value *> &index,
                  llvm::Value *linear);

/// Half-open range [begin, end) of items `block` covers with `perBlock` each.
std::pair<llvm::Value *, llvm::Value *> blockRange(llvm::IRBuilder<> &b, llvm::Value *block,
                                                   int64_t perBlock, llvm::Value *total);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_REDUCTION_H
