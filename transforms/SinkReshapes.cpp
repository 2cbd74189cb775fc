#include "transforms/SinkReshapes.h"

#include <optional>

#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/ValueFacts.h"
#include "transforms/RewriteSweep.h"

namespace xs {

namespace {

bool isUnit(const DimExpr &d) { return d == DimExpr(1); }

/// Indices of the dims of `type` that are not 1.
std::vector<int64_t> nonUnitDims(const TensorType &type) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < type.rank(); ++i)
    if (!isUnit(type.dim(i)))
      dims.push_back(i);
  return dims;
}

/// The operand of `value`'s defining reshape when that reshape only adds
/// dims of size 1 to an operand that has none; else nullptr.
Value *unitReshapeSource(const Function &function, const Value &value) {
  const Operation *def = value.definingOp();
  if (def == nullptr || def->kind() != OpKind::Reshape)
    return nullptr;
  const TensorType &from = def->operand(0)->type();
  const TensorType &to = def->type();
  std::vector<int64_t> kept = nonUnitDims(to);
  if (static_cast<int64_t>(nonUnitDims(from).size()) != from.rank() ||
      static_cast<int64_t>(kept.size()) != from.rank() || to.rank() == from.rank())
    return nullptr;
  for (int64_t i = 0; i < from.rank(); ++i)
    if (!function.constraints().provablyEqual(from.dim(i), to.dim(kept[static_cast<size_t>(i)])))
      return nullptr;
  return def->operand(0);
}

/// broadcast(reshape(v)) -> broadcast(v) with the dims mapping composed.
absl::StatusOr<Value *> foldIntoBroadcast(Function &function, Operation &op) {
  Value *source = unitReshapeSource(function, *op.operand(0));
  if (source == nullptr)
    return nullptr;
  const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
  std::vector<int64_t> composed;
  for (int64_t kept : nonUnitDims(op.operand(0)->type()))
    composed.push_back(dims[static_cast<size_t>(kept)]);
  Builder b(function, &op, op.loc());
  return b.create(OpKind::Broadcast, {source}, {{"dims", Attribute::intList(composed)}}, op.type());
}

/// The operand of `value`'s defining reshape, where that reshape only adds
/// or drops dims of size 1 (unitReshapeSource), or where an op computes the
/// operand (a parameter's or a constant's reshape is a view the planner
/// reads in place) and it has no more dims of size 1 than `value` (ops on a
/// row's [R, 1] statistic rather than on its [R] would walk rows of one
/// element); else nullptr.
Value *reshapeSource(const Function &function, const Value &value) {
  if (Value *source = unitReshapeSource(function, value))
    return source;
  const Operation *def = value.definingOp();
  if (def == nullptr || def->kind() != OpKind::Reshape)
    return nullptr;
  const Operation *sourceDef = def->operand(0)->definingOp();
  if (sourceDef == nullptr || sourceDef->kind() == OpKind::Constant)
    return nullptr;
  auto units = [](const TensorType &type) {
    return static_cast<size_t>(type.rank()) - nonUnitDims(type).size();
  };
  return units(def->operand(0)->type()) <= units(value.type()) ? def->operand(0) : nullptr;
}

/// Whether a gather reads `value`'s elements (its operand 0).
bool isGatheredFrom(const Function &function, const Value &value) {
  for (const auto &op : function.ops())
    if (op->kind() == OpKind::Gather && op->operand(0) == &value)
      return true;
  return false;
}

/// op(reshape(v), ..., splat) -> reshape(op(v, ..., splat')), where every
/// operand that is not a splat is a reshape of a value of v's shape. A
/// reshape a gather reads stays: the planner keeps such a value in a block's
/// buffer (a resize's rows, read at the taps and in place), and its other
/// readers read it there, not its source again in a second layout.
absl::StatusOr<Value *> sinkBelow(Function &function, Operation &op) {
  const TensorType *shape = nullptr;
  for (Value *operand : op.operands()) {
    Value *source = reshapeSource(function, *operand);
    if (source == nullptr)
      continue;
    if (isGatheredFrom(function, *operand))
      return nullptr;
    if (shape != nullptr && source->type().shape() != shape->shape())
      return nullptr;
    shape = &source->type();
  }
  if (shape == nullptr)
    return nullptr;
  Builder b(function, &op, op.loc());
  std::vector<Value *> operands;
  for (Value *operand : op.operands()) {
    if (Value *source = reshapeSource(function, *operand)) {
      operands.push_back(source);
      continue;
    }
    // A tensor of the op's own shape (a dense literal included: its
    // elements are laid out in that shape): the reshape stays.
    if (operand->definingOp() == nullptr || !isScalarConstant(*operand->definingOp()))
      return nullptr;
    const Operation &constant = *operand->definingOp();
    XS_ASSIGN_OR_RETURN(Value * resized,
                        b.create(OpKind::Constant, {}, constant.attrs(),
                                 TensorType(operand->type().elementType(), shape->shape())));
    operands.push_back(resized);
  }
  XS_ASSIGN_OR_RETURN(Value * sunk, b.create(op.kind(), operands, op.attrs()));
  return b.create(OpKind::Reshape, {sunk}, {}, op.type());
}

/// reshape(reshape(v)) -> reshape(v), or v itself when the outer reshape
/// gives back v's shape: a statistic unsqueezed for its broadcast and
/// squeezed again for a result (`mean(1, keepdim=True)` then `squeeze(1)`)
/// is the statistic.
absl::StatusOr<Value *> composeReshapes(Function &function, Operation &op) {
  const Operation *inner = op.operand(0)->definingOp();
  if (inner == nullptr || inner->kind() != OpKind::Reshape)
    return nullptr;
  Value *source = inner->operand(0);
  const TensorType &from = source->type();
  const TensorType &to = op.type();
  bool same = from.rank() == to.rank();
  for (int64_t i = 0; same && i < from.rank(); ++i)
    same = function.constraints().provablyEqual(from.dim(i), to.dim(i));
  if (same)
    return source;
  Builder b(function, &op, op.loc());
  return b.create(OpKind::Reshape, {source}, {}, to);
}

} // namespace

absl::StatusOr<bool> runSinkReshapes(Function &function) {
  // A sunk reshape meets the next element-wise op or broadcast below it.
  return rewriteToFixpoint(function, [](Function &f, Operation &op) -> absl::StatusOr<Value *> {
    if (op.kind() == OpKind::Broadcast)
      return foldIntoBroadcast(f, op);
    if (op.kind() == OpKind::Reshape)
      return composeReshapes(f, op);
    if (op.info().isElementwise())
      return sinkBelow(f, op);
    return nullptr;
  });
}

} // namespace xs
