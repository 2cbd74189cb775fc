// Shape and data movement: broadcast, reshape, transpose, slice, concat, pad.
// Attributes were checked against the symbolic types by shape inference;
// what can only fail for particular dim values (a slice bound past the end,
// a reflect pad wider than the dim) is checked here, as a run-time error.

#include "absl/strings/str_join.h"
#include "ir/InterpreterInternal.h"
#include "ir/ScalarConversions.h"

namespace xs::interp {
namespace {

std::string listStr(const std::vector<int64_t> &values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

absl::StatusOr<HostTensor> evaluateBroadcast(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  std::vector<int64_t> dims = intListAttrOr(ctx.op, "dims", {});
  int64_t resultRank = static_cast<int64_t>(ctx.resultShape.size());
  if (static_cast<int64_t>(dims.size()) != x.rank())
    return ctx.error("'dims' ", listStr(dims), " needs one entry per operand dim (", x.rank(), ")");
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= resultRank || (i > 0 && dims[i] <= dims[i - 1]))
      return ctx.error("'dims' ", listStr(dims), " must be strictly increasing in [0, ", resultRank,
                       ")");
    int64_t from = x.shape()[i], to = ctx.resultShape[static_cast<size_t>(dims[i])];
    if (from != to && from != 1)
      return ctx.error("operand dim ", i, " is ", from, " but result dim ", dims[i], " is ", to,
                       "; an operand dim must equal its result dim or be 1");
  }
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> strides = x.strides();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    int64_t source = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      if (x.shape()[d] != 1)
        source += index[static_cast<size_t>(dims[d])] * strides[d];
    copyElement(x, source, result, i);
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateReshape(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  HostTensor result = ctx.makeResult();
  if (result.numElements() != x.numElements())
    return ctx.error("cannot reshape ", x.typeStr(), " (", x.numElements(), " elements) to ",
                     result.typeStr(), " (", result.numElements(), " elements)");
  if (x.isFloat())
    result.floats() = x.floats();
  else
    result.ints() = x.ints();
  return result;
}

absl::StatusOr<HostTensor> evaluateTranspose(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  std::vector<int64_t> perm = intListAttrOr(ctx.op, "perm", {});
  std::vector<bool> seen(static_cast<size_t>(x.rank()), false);
  bool valid = static_cast<int64_t>(perm.size()) == x.rank() &&
               static_cast<int64_t>(ctx.resultShape.size()) == x.rank();
  for (size_t i = 0; valid && i < perm.size(); ++i) {
    valid = perm[i] >= 0 && perm[i] < x.rank() && !seen[static_cast<size_t>(perm[i])] &&
            ctx.resultShape[i] == x.shape()[static_cast<size_t>(perm[i])];
    if (valid)
      seen[static_cast<size_t>(perm[i])] = true;
  }
  if (!valid)
    return ctx.error("'perm' ", listStr(perm), " is not a permutation mapping ", x.typeStr(),
                     " to ", listStr(ctx.resultShape));
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> strides = x.strides();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    int64_t source = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      source += index[d] * strides[static_cast<size_t>(perm[d])];
    copyElement(x, source, result, i);
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateSlice(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  absl::StatusOr<std::vector<int64_t>> start = evaluateDimListAttr(ctx, "start");
  if (!start.ok())
    return start.status();
  absl::StatusOr<std::vector<int64_t>> limit = evaluateDimListAttr(ctx, "limit");
  if (!limit.ok())
    return limit.status();
  std::vector<int64_t> step =
      intListAttrOr(ctx.op, "step", std::vector<int64_t>(static_cast<size_t>(x.rank()), 1));
  size_t rank = static_cast<size_t>(x.rank());
  if (start->size() != rank || limit->size() != rank || step.size() != rank ||
      ctx.resultShape.size() != rank)
    return ctx.error("'start', 'limit' and 'step' need one entry per dim of ", x.typeStr());
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = (*start)[d], hi = (*limit)[d], dim = x.shape()[d];
    if (step[d] <= 0)
      return ctx.error("'step' ", listStr(step), " must be positive");
    if (lo < 0 || lo > hi || hi > dim)
      return ctx.error("dim ", d, ": start ", lo, " and limit ", hi,
                       " must satisfy 0 <= start <= limit <= ", dim, " (operand ", x.typeStr(),
                       ")");
    int64_t count = (hi - lo + step[d] - 1) / step[d];
    if (count != ctx.resultShape[d])
      return ctx.error("dim ", d, " selects ", count, " elements but the result type has ",
                       ctx.resultShape[d]);
  }
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> strides = x.strides();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source += ((*start)[d] + index[d] * step[d]) * strides[d];
    copyElement(x, source, result, i);
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateConcat(const OpContext &ctx) {
  int64_t axis = ctx.op.intAttrOr("dim", 0);
  size_t rank = ctx.resultShape.size();
  if (absl::Status s = checkAxis(ctx, "dim", axis, static_cast<int64_t>(rank)); !s.ok())
    return s;
  size_t k = static_cast<size_t>(axis);
  int64_t total = 0;
  for (const HostTensor *operand : ctx.operands) {
    bool matches = operand->shape().size() == rank;
    for (size_t d = 0; matches && d < rank; ++d)
      matches = d == k || operand->shape()[d] == ctx.resultShape[d];
    if (!matches)
      return ctx.error("operand ", operand->typeStr(), " does not match the result ",
                       listStr(ctx.resultShape), " outside dim ", axis);
    total += operand->shape()[k];
  }
  if (total != ctx.resultShape[k])
    return ctx.error("operands add up to ", total, " along dim ", axis, " but the result type has ",
                     ctx.resultShape[k]);
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> resultStrides = result.strides();
  std::vector<int64_t> index;
  int64_t offset = 0;
  for (const HostTensor *operand : ctx.operands) {
    for (int64_t i = 0; i < operand->numElements(); ++i) {
      unravelIndex(i, operand->shape(), index);
      index[k] += offset;
      copyElement(*operand, i, result, linearIndex(index, resultStrides));
    }
    offset += operand->shape()[k];
  }
  return result;
}

/// Maps an index into the padded dim back to the operand, or -1 for padding
/// filled with the constant.
int64_t padSource(int64_t i, int64_t low, int64_t dim, const std::string &mode) {
  int64_t j = i - low;
  if (j >= 0 && j < dim)
    return j;
  if (mode == "edge")
    return j < 0 ? 0 : dim - 1;
  if (mode == "reflect")
    return j < 0 ? -j : 2 * (dim - 1) - j;
  return -1;
}

absl::StatusOr<HostTensor> evaluatePad(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  std::vector<int64_t> low = intListAttrOr(ctx.op, "low", {});
  std::vector<int64_t> high = intListAttrOr(ctx.op, "high", {});
  std::string mode = ctx.op.enumAttrOr("mode", "constant");
  size_t rank = static_cast<size_t>(x.rank());
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return ctx.error("'mode' is '", mode, "' but must be constant, edge or reflect");
  if (low.size() != rank || high.size() != rank || ctx.resultShape.size() != rank)
    return ctx.error("'low' and 'high' need one entry per dim of ", x.typeStr());
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = x.shape()[d];
    if (low[d] < 0 || high[d] < 0)
      return ctx.error("'low' ", listStr(low), " and 'high' ", listStr(high),
                       " must not be negative");
    if (low[d] + dim + high[d] != ctx.resultShape[d])
      return ctx.error("dim ", d, " pads to ", low[d] + dim + high[d], " but the result type has ",
                       ctx.resultShape[d]);
    if (mode == "reflect" && (low[d] >= dim || high[d] >= dim) && low[d] + high[d] > 0)
      return ctx.error("reflect padding of dim ", d, " by ", low[d], " and ", high[d],
                       " needs both below the dim's size ", dim, " (operand ", x.typeStr(), ")");
    if (mode == "edge" && dim == 0 && low[d] + high[d] > 0)
      return ctx.error("edge padding of dim ", d, " needs a non-empty dim (operand ", x.typeStr(),
                       ")");
  }
  double fill = ctx.op.floatAttrOr("value", 0.0);
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> strides = x.strides();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    int64_t source = 0;
    bool inside = true;
    for (size_t d = 0; inside && d < rank; ++d) {
      int64_t j = padSource(index[d], low[d], x.shape()[d], mode);
      inside = j >= 0;
      source += j * strides[d];
    }
    if (inside)
      copyElement(x, source, result, i);
    else
      result.setDouble(i, fill); // rounded or wrapped to the result type, like a constant
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateMovement(const OpContext &ctx) {
  for (const HostTensor *operand : ctx.operands)
    if (operand->elementType() != ctx.resultType)
      return ctx.error("operand ", operand->typeStr(), " does not have the result's element type ",
                       elementTypeName(ctx.resultType));
  switch (ctx.op.kind()) {
  case OpKind::Broadcast:
    return evaluateBroadcast(ctx);
  case OpKind::Reshape:
    return evaluateReshape(ctx);
  case OpKind::Transpose:
    return evaluateTranspose(ctx);
  case OpKind::Slice:
    return evaluateSlice(ctx);
  case OpKind::Concat:
    return evaluateConcat(ctx);
  case OpKind::Pad:
    return evaluatePad(ctx);
  default:
    break;
  }
  return ctx.error("not a data movement op");
}

} // namespace xs::interp
