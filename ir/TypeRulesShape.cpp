// Typing rules of shape and data-movement ops: broadcast, reshape, transpose,
// slice, concat, pad, gather, take_along_axis.

#include <cmath>

#include "ir/TypeRulesSupport.h"

namespace xs::rules {

namespace {

absl::StatusOr<TensorType> inferBroadcast(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type(), &type = op.type();
  const std::vector<int64_t> &dims = op.attr("dims")->getIntList();
  if (type.elementType() != x.elementType())
    return opError(op, "the result type ", type.str(), " must keep the operand's element type (",
                   x.str(), "); use cast to change it");
  if (static_cast<int64_t>(dims.size()) != x.rank())
    return opError(op, "dims = ", intListStr(dims), " has ", dims.size(),
                   " entries, but the operand ", x.str(), " has rank ", x.rank(),
                   "; give one result dim per operand dim");
  if (absl::Status s = requireDimList(op, "dims", dims, type.rank(), type); !s.ok())
    return s;
  for (size_t i = 0; i < dims.size(); ++i) {
    const DimExpr &from = x.dim(static_cast<int64_t>(i)), &to = type.dim(dims[i]);
    // A dim that may or may not be 1 (`to == broadcast(from, M)`) is the
    // broadcast speculation resolves per variant.
    if (from == DimExpr(1) || u.store().broadcastsTo(from, to))
      continue;
    std::string message =
        absl::StrCat("operand dim ", i, " (", from.str(), ") must equal result dim ", dims[i], " (",
                     to.str(), ") or be 1; operand ", x.str(), ", result ", type.str());
    if (absl::Status s = requireDimEqual(op, u, from, to, message); !s.ok())
      return s;
  }
  return type;
}

absl::StatusOr<TensorType> inferReshape(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type(), &type = op.type();
  if (type.elementType() != x.elementType())
    return opError(op, "the result type ", type.str(), " must keep the operand's element type (",
                   x.str(), "); use cast to change it");
  std::string message =
      absl::StrCat("the operand ", x.str(), " has ", x.numElements().str(),
                   " elements but the result type ", type.str(), " has ", type.numElements().str());
  if (absl::Status s = requireDimEqual(op, u, x.numElements(), type.numElements(), message);
      !s.ok())
    return s;
  return type;
}

absl::StatusOr<TensorType> inferTranspose(const Operation &op) {
  const TensorType &x = op.operand(0)->type();
  const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
  std::vector<bool> seen(static_cast<size_t>(x.rank()), false);
  bool ok = static_cast<int64_t>(perm.size()) == x.rank();
  for (int64_t p : perm) {
    if (!ok || p < 0 || p >= x.rank() || seen[static_cast<size_t>(p)]) {
      ok = false;
      break;
    }
    seen[static_cast<size_t>(p)] = true;
  }
  if (!ok)
    return opError(op, "perm = ", intListStr(perm), " is not a permutation of [0, ", x.rank() - 1,
                   "] for the operand ", x.str());
  std::vector<DimExpr> shape;
  for (int64_t p : perm)
    shape.push_back(x.dim(p));
  return x.withShape(std::move(shape));
}

absl::StatusOr<TensorType> inferSlice(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type();
  const std::vector<DimExpr> &start = op.attr("start")->getDimList();
  const std::vector<DimExpr> &limit = op.attr("limit")->getDimList();
  std::vector<int64_t> step(static_cast<size_t>(x.rank()), 1);
  if (const Attribute *a = op.attr("step"))
    step = a->getIntList();
  for (auto [name, size] : {std::pair<std::string_view, size_t>{"start", start.size()},
                            {"limit", limit.size()},
                            {"step", step.size()}})
    if (static_cast<int64_t>(size) != x.rank())
      return opError(op, name, " has ", size, " entries, but the operand ", x.str(), " has rank ",
                     x.rank());
  std::vector<DimExpr> shape;
  for (int64_t i = 0; i < x.rank(); ++i) {
    const DimExpr &lo = start[i], &hi = limit[i], &d = x.dim(i);
    if (step[i] <= 0)
      return opError(op, "step ", step[i], " of dim ", i, " must be positive");
    if (step[i] > kMaxSliceStep)
      return opError(op, "step ", step[i], " of dim ", i, " is beyond 2^31; a step as long as the ",
                     "dim takes one element");
    if (provablyNegative(u, lo))
      return opError(op, "start ", lo.str(), " of dim ", i, " is negative");
    if (provablyNegative(u, hi - lo))
      return opError(op, "start ", lo.str(), " of dim ", i, " exceeds its limit ", hi.str());
    if (provablyNegative(u, d - hi))
      return opError(op, "limit ", hi.str(), " of dim ", i, " exceeds the size ", d.str(),
                     " of the operand ", x.str());
    shape.push_back(DimExpr::ceilDiv(hi - lo, step[i]));
  }
  return x.withShape(std::move(shape));
}

absl::StatusOr<TensorType> inferConcat(const Operation &op, DimUnifier &u) {
  const TensorType &first = op.operand(0)->type();
  int64_t k = op.attr("dim")->getInt();
  if (absl::Status s = requireAxis(op, "dim", k, first.rank(), first); !s.ok())
    return s;
  DimExpr total = first.dim(k);
  for (size_t i = 1; i < op.numOperands(); ++i) {
    const TensorType &t = op.operand(i)->type();
    if (absl::Status s = requireSameElementType(
            op, 0, i, "concat operands must have the same element type (insert a cast)");
        !s.ok())
      return s;
    std::string message =
        absl::StrCat("operand ", i, " has type ", t.str(), " but operand 0 has ", first.str(),
                     "; concat operands must agree on every dim except dim ", k);
    if (t.rank() != first.rank())
      return opError(op, message);
    for (int64_t d = 0; d < t.rank(); ++d)
      if (d != k)
        if (absl::Status s = requireDimEqual(op, u, first.dim(d), t.dim(d), message); !s.ok())
          return s;
    total = total + t.dim(k);
  }
  std::vector<DimExpr> shape = first.shape();
  shape[static_cast<size_t>(k)] = total;
  return first.withShape(std::move(shape));
}

absl::StatusOr<TensorType> inferPad(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type();
  const std::vector<int64_t> &low = op.attr("low")->getIntList();
  const std::vector<int64_t> &high = op.attr("high")->getIntList();
  if (absl::Status s = requireEnum(op, "mode", {"constant", "edge", "reflect"}); !s.ok())
    return s;
  std::string mode = op.enumAttrOr("mode", "constant");
  double value = op.floatAttrOr("value", 0.0);
  if (!isFloat(x.elementType()) && (std::isnan(value) || value != std::floor(value)))
    return opError(op, "value = ", formatFloat(value), " is not an integer, but the operand ",
                   x.str(), " has integer elements");
  std::vector<DimExpr> shape;
  for (auto [name, list] :
       {std::pair<std::string_view, const std::vector<int64_t> *>{"low", &low}, {"high", &high}}) {
    if (static_cast<int64_t>(list->size()) != x.rank())
      return opError(op, name, " = ", intListStr(*list), " has ", list->size(),
                     " entries, but the operand ", x.str(), " has rank ", x.rank());
    for (size_t i = 0; i < list->size(); ++i) {
      if ((*list)[i] < 0)
        return opError(op, name, " = ", intListStr(*list), " has a negative entry for dim ", i,
                       "; padding must be non-negative (use slice to remove elements)");
      if (mode == "reflect" &&
          provablyNegative(u, x.dim(static_cast<int64_t>(i)) - DimExpr((*list)[i] + 1)))
        return opError(op, "reflect padding ", name, "[", i, "] = ", (*list)[i],
                       " must be less than the dim's size ", x.dim(static_cast<int64_t>(i)).str());
    }
  }
  for (int64_t i = 0; i < x.rank(); ++i)
    shape.push_back(x.dim(i) + DimExpr(low[i] + high[i]));
  return x.withShape(std::move(shape));
}

absl::StatusOr<TensorType> inferGather(const Operation &op) {
  const TensorType &x = op.operand(0)->type(), &idx = op.operand(1)->type();
  int64_t k = op.attr("dim")->getInt();
  if (absl::Status s = requireIntegerIndices(op, 1); !s.ok())
    return s;
  if (absl::Status s = requireAxis(op, "dim", k, x.rank(), x); !s.ok())
    return s;
  std::vector<DimExpr> shape(x.shape().begin(), x.shape().begin() + k);
  shape.insert(shape.end(), idx.shape().begin(), idx.shape().end());
  shape.insert(shape.end(), x.shape().begin() + k + 1, x.shape().end());
  return x.withShape(std::move(shape));
}

absl::StatusOr<TensorType> inferTakeAlongAxis(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type(), &idx = op.operand(1)->type();
  int64_t k = op.attr("dim")->getInt();
  if (absl::Status s = requireIntegerIndices(op, 1); !s.ok())
    return s;
  if (absl::Status s = requireAxis(op, "dim", k, x.rank(), x); !s.ok())
    return s;
  std::string message = absl::StrCat("the indices ", idx.str(), " must have the rank of ", x.str(),
                                     " and the same dims except dim ", k);
  if (idx.rank() != x.rank())
    return opError(op, message);
  for (int64_t d = 0; d < x.rank(); ++d)
    if (d != k)
      if (absl::Status s = requireDimEqual(op, u, x.dim(d), idx.dim(d), message); !s.ok())
        return s;
  return idx.withElementType(x.elementType());
}

} // namespace

absl::StatusOr<TensorType> inferShape(const Operation &op, DimUnifier &u) {
  switch (op.info().rule) {
  case TypeRule::Broadcast:
    return inferBroadcast(op, u);
  case TypeRule::Reshape:
    return inferReshape(op, u);
  case TypeRule::Transpose:
    return inferTranspose(op);
  case TypeRule::Slice:
    return inferSlice(op, u);
  case TypeRule::Concat:
    return inferConcat(op, u);
  case TypeRule::Pad:
    return inferPad(op, u);
  case TypeRule::Gather:
    return inferGather(op);
  case TypeRule::TakeAlongAxis:
    return inferTakeAlongAxis(op, u);
  default:
    break;
  }
  assert(false && "not a shape rule");
  return opError(op, "internal error: not a shape rule");
}

} // namespace xs::rules
