// Reductions: reduce_sum/max/min/prod over a set of dims, argmax/argmin
// along one dim. Floats accumulate in f64 in row-major order; integers
// accumulate modulo 2^64 and wrap to the width at the end, which equals
// wrapping after every step.

#include "absl/strings/str_join.h"
#include "ir/InterpreterInternal.h"
#include "ir/ScalarConversions.h"

namespace xs::interp {
namespace {

/// For each operand element, the position of the result element it reduces
/// into (reduced dims dropped). Checks `dims` and the result shape.
absl::StatusOr<std::vector<int64_t>> resultPositions(const OpContext &ctx,
                                                     const std::vector<int64_t> &dims) {
  const HostTensor &x = ctx.operand(0);
  std::vector<bool> reduced(static_cast<size_t>(x.rank()), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= x.rank() || (i > 0 && dims[i] <= dims[i - 1]))
      return ctx.error("'dims' [", absl::StrJoin(dims, ", "),
                       "] must be strictly increasing in [0, ", x.rank(), ")");
    reduced[static_cast<size_t>(dims[i])] = true;
  }
  std::vector<int64_t> kept;
  for (size_t d = 0; d < reduced.size(); ++d)
    if (!reduced[d])
      kept.push_back(x.shape()[d]);
  if (kept != ctx.resultShape)
    return ctx.error("reducing ", x.typeStr(), " over [", absl::StrJoin(dims, ", "),
                     "] does not give the result shape [", absl::StrJoin(ctx.resultShape, ", "),
                     "]");
  std::vector<int64_t> resultStrides = stridesOf(ctx.resultShape);
  std::vector<int64_t> positions(static_cast<size_t>(x.numElements()));
  std::vector<int64_t> index;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    unravelIndex(i, x.shape(), index);
    int64_t position = 0;
    size_t r = 0;
    for (size_t d = 0; d < index.size(); ++d)
      if (!reduced[d])
        position += index[d] * resultStrides[r++];
    positions[static_cast<size_t>(i)] = position;
  }
  return positions;
}

HostTensor reduceFloats(const OpContext &ctx, const std::vector<int64_t> &positions) {
  const HostTensor &x = ctx.operand(0);
  OpKind kind = ctx.op.kind();
  double identity = kind == OpKind::ReduceSum    ? 0.0
                    : kind == OpKind::ReduceProd ? 1.0
                    : kind == OpKind::ReduceMax  ? -std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::infinity();
  HostTensor result = ctx.makeResult();
  std::vector<double> &acc = result.floats();
  acc.assign(acc.size(), identity);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.floats()[static_cast<size_t>(i)];
    double &a = acc[static_cast<size_t>(positions[static_cast<size_t>(i)])];
    switch (kind) {
    case OpKind::ReduceSum:
      a += v;
      break;
    case OpKind::ReduceProd:
      a *= v;
      break;
    case OpKind::ReduceMax:
      a = nanMax(a, v);
      break;
    default:
      a = nanMin(a, v);
      break;
    }
  }
  return result;
}

HostTensor reduceIntegers(const OpContext &ctx, const std::vector<int64_t> &positions) {
  const HostTensor &x = ctx.operand(0);
  OpKind kind = ctx.op.kind();
  ElementType type = ctx.resultType;
  int64_t identity = kind == OpKind::ReduceSum    ? 0
                     : kind == OpKind::ReduceProd ? 1
                     : kind == OpKind::ReduceMax  ? integerTypeMin(type)
                                                  : integerTypeMax(type);
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> &acc = result.ints();
  acc.assign(acc.size(), identity);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t v = x.ints()[static_cast<size_t>(i)];
    int64_t &a = acc[static_cast<size_t>(positions[static_cast<size_t>(i)])];
    switch (kind) {
    case OpKind::ReduceSum:
      a = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(v));
      break;
    case OpKind::ReduceProd:
      a = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(v));
      break;
    case OpKind::ReduceMax:
      a = std::max(a, v);
      break;
    default:
      a = std::min(a, v);
      break;
    }
  }
  for (int64_t &a : acc)
    a = wrapToIntegerType(a, type);
  return result;
}

/// True when `v` should replace `best` as argmax (argmin): strictly beyond
/// it, with NaN beyond everything, so the first extreme wins.
bool beats(double v, double best, bool wantMax) {
  if (std::isnan(best))
    return false;
  if (std::isnan(v))
    return true;
  return wantMax ? v > best : v < best;
}

absl::StatusOr<HostTensor> evaluateArgReduce(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  int64_t axis = ctx.op.intAttrOr("dim", 0);
  if (absl::Status s = checkAxis(ctx, "dim", axis, x.rank()); !s.ok())
    return s;
  size_t k = static_cast<size_t>(axis);
  int64_t length = x.shape()[k];
  if (length == 0)
    return ctx.error("dim ", axis, " of ", x.typeStr(),
                     " is empty; argmax and argmin need at least one element");
  std::vector<int64_t> kept = x.shape();
  kept.erase(kept.begin() + axis);
  if (kept != ctx.resultShape)
    return ctx.error("removing dim ", axis, " of ", x.typeStr(),
                     " does not give the result shape [", absl::StrJoin(ctx.resultShape, ", "),
                     "]");
  bool wantMax = ctx.op.kind() == OpKind::ArgMax;
  int64_t stride = x.strides()[k];
  HostTensor result = ctx.makeResult();
  std::vector<int64_t> index;
  for (int64_t i = 0; i < result.numElements(); ++i) {
    unravelIndex(i, ctx.resultShape, index);
    index.insert(index.begin() + axis, 0);
    int64_t base = linearIndex(index, x.strides());
    int64_t bestAt = 0;
    if (x.isFloat()) {
      double best = x.floats()[static_cast<size_t>(base)];
      for (int64_t j = 1; j < length; ++j) {
        double v = x.floats()[static_cast<size_t>(base + j * stride)];
        if (beats(v, best, wantMax)) {
          best = v;
          bestAt = j;
        }
      }
    } else {
      int64_t best = x.ints()[static_cast<size_t>(base)];
      for (int64_t j = 1; j < length; ++j) {
        int64_t v = x.ints()[static_cast<size_t>(base + j * stride)];
        if (wantMax ? v > best : v < best) {
          best = v;
          bestAt = j;
        }
      }
    }
    result.ints()[static_cast<size_t>(i)] = bestAt;
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateReduce(const OpContext &ctx) {
  if (ctx.op.info().rule == TypeRule::ArgReduce) {
    if (ctx.resultType != ElementType::I64)
      return ctx.error("result must be i64, not ", elementTypeName(ctx.resultType));
    return evaluateArgReduce(ctx);
  }
  if (ctx.operand(0).elementType() != ctx.resultType)
    return ctx.error("operand ", ctx.operand(0).typeStr(),
                     " does not have the result's element type");
  absl::StatusOr<std::vector<int64_t>> positions =
      resultPositions(ctx, intListAttrOr(ctx.op, "dims", {}));
  if (!positions.ok())
    return positions.status();
  if (ctx.operand(0).isFloat())
    return reduceFloats(ctx, *positions);
  return reduceIntegers(ctx, *positions);
}

} // namespace xs::interp
