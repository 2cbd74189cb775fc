#include "transforms/SinkTransposes.h"

#include <algorithm>
#include <numeric>

#include "ir/Builder.h"
#include "ir/ValueFacts.h"
#include "transforms/RewriteSweep.h"

namespace xs {

namespace {

using Perm = std::vector<int64_t>;

const Perm *transposePerm(const Value &value) {
  const Operation *def = value.definingOp();
  if (def == nullptr || def->kind() != OpKind::Transpose)
    return nullptr;
  return &def->attr("perm")->getIntList();
}

/// The shape of v where transpose(v, perm) has `shape`: result dim j is
/// operand dim perm[j].
std::vector<DimExpr> untransposedShape(const std::vector<DimExpr> &shape, const Perm &perm) {
  std::vector<DimExpr> from(shape.size());
  for (size_t j = 0; j < perm.size(); ++j)
    from[static_cast<size_t>(perm[j])] = shape[j];
  return from;
}

/// The broadcast b' with transpose(b', perm) = b for b = broadcast(m, dims):
/// operand dim k lands on result dim dims[k], which is dim perm[dims[k]] of
/// b'. Returns nullptr where those are not increasing.
absl::StatusOr<Value *> untransposedBroadcast(Builder &b, const Operation &broadcast,
                                              const Perm &perm) {
  std::vector<int64_t> dims;
  for (int64_t d : broadcast.attr("dims")->getIntList())
    dims.push_back(perm[static_cast<size_t>(d)]);
  if (!std::is_sorted(dims.begin(), dims.end()))
    return nullptr;
  TensorType type(broadcast.type().elementType(),
                  untransposedShape(broadcast.type().shape(), perm));
  return b.create(OpKind::Broadcast, {broadcast.operand(0)}, {{"dims", Attribute::intList(dims)}},
                  std::move(type));
}

/// op(transpose(x, p), broadcast(m), c) -> transpose(op(x, broadcast'(m), c'), p).
absl::StatusOr<Value *> sinkBelowElementwise(Function &function, Operation &op) {
  const Perm *perm = nullptr;
  for (Value *operand : op.operands())
    if (const Perm *p = transposePerm(*operand)) {
      if (perm != nullptr && *perm != *p)
        return nullptr;
      perm = p;
    }
  if (perm == nullptr)
    return nullptr;
  Builder b(function, &op, op.loc());
  std::vector<Value *> operands;
  for (Value *operand : op.operands()) {
    if (transposePerm(*operand) != nullptr) {
      operands.push_back(operand->definingOp()->operand(0));
      continue;
    }
    const Operation *def = operand->definingOp();
    Value *moved = nullptr;
    if (def != nullptr && def->kind() == OpKind::Broadcast) {
      XS_ASSIGN_OR_RETURN(moved, untransposedBroadcast(b, *def, *perm));
    } else if (def != nullptr && isScalarConstant(*def)) {
      TensorType type(operand->type().elementType(),
                      untransposedShape(operand->type().shape(), *perm));
      XS_ASSIGN_OR_RETURN(moved, b.create(OpKind::Constant, {}, def->attrs(), std::move(type)));
    }
    // A tensor of the op's own layout: the transpose stays where it is.
    if (moved == nullptr)
      return nullptr;
    operands.push_back(moved);
  }
  TensorType type(op.type().elementType(), untransposedShape(op.type().shape(), *perm));
  XS_ASSIGN_OR_RETURN(Value * sunk, b.create(op.kind(), operands, op.attrs(), std::move(type)));
  return b.create(OpKind::Transpose, {sunk}, {{"perm", Attribute::intList(*perm)}});
}

/// reduce(transpose(x, p), dims) -> reduce(x, p[dims]), then a transpose of
/// the kept dims where their order changed.
absl::StatusOr<Value *> reduceUntransposed(Function &function, Operation &op) {
  const Perm *perm = transposePerm(*op.operand(0));
  if (perm == nullptr)
    return nullptr;
  const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
  std::vector<int64_t> reduced;
  for (int64_t d : dims)
    reduced.push_back((*perm)[static_cast<size_t>(d)]);
  std::sort(reduced.begin(), reduced.end());
  // Reduced dims that are not one run would leave a generic reduction
  // walking strided indices: the transposed rows read no worse.
  if (reduced.back() - reduced.front() + 1 != static_cast<int64_t>(reduced.size()))
    return nullptr;
  // The kept dims of the operand, in the transposed order and in their own.
  std::vector<int64_t> kept;
  for (size_t j = 0; j < perm->size(); ++j)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(j)) == dims.end())
      kept.push_back((*perm)[j]);
  std::vector<int64_t> sortedKept = kept;
  std::sort(sortedKept.begin(), sortedKept.end());
  Perm keptPerm;
  for (int64_t k : kept)
    keptPerm.push_back(std::find(sortedKept.begin(), sortedKept.end(), k) - sortedKept.begin());

  Builder b(function, &op, op.loc());
  AttrDict attrs = op.attrs();
  attrs.insert_or_assign("dims", Attribute::intList(reduced));
  std::vector<DimExpr> shape;
  for (int64_t k : sortedKept)
    shape.push_back(op.operand(0)->definingOp()->operand(0)->type().dim(k));
  XS_ASSIGN_OR_RETURN(Value * sunk,
                      b.create(op.kind(), {op.operand(0)->definingOp()->operand(0)},
                               std::move(attrs), TensorType(op.type().elementType(), shape)));
  Perm identity(keptPerm.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (keptPerm == identity)
    return sunk;
  return b.create(OpKind::Transpose, {sunk}, {{"perm", Attribute::intList(keptPerm)}});
}

} // namespace

absl::StatusOr<bool> runSinkTransposes(Function &function) {
  // A sunk transpose meets the next op below it.
  return rewriteToFixpoint(function, [](Function &f, Operation &op) -> absl::StatusOr<Value *> {
    if (op.info().isElementwise())
      return sinkBelowElementwise(f, op);
    if (op.info().rule == TypeRule::Reduce)
      return reduceUntransposed(f, op);
    return nullptr;
  });
}

} // namespace xs
