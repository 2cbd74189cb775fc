// Ops that carry a state along whole lines of one dim: cumsum's running
// sums and top_k's k best elements so far.

#include <algorithm>
#include <numeric>

#include "ir/InterpreterInternal.h"
#include "ir/ScalarConversions.h"

namespace xs::interp {

namespace {

/// The lines along `dim` of `shape`: element j of line (o, r) is at
/// (o * length + j) * inner + r.
struct Lines {
  int64_t outer = 1, length = 0, inner = 1;
  Lines(const std::vector<int64_t> &shape, size_t dim) : length(shape[dim]) {
    for (size_t d = 0; d < dim; ++d)
      outer *= shape[d];
    for (size_t d = dim + 1; d < shape.size(); ++d)
      inner *= shape[d];
  }
  /// Step k of a walk from the end (reverse) or the start.
  int64_t reverse(int64_t k, bool fromEnd) const { return fromEnd ? length - 1 - k : k; }
  size_t at(int64_t o, int64_t j, int64_t r) const {
    return static_cast<size_t>((o * length + j) * inner + r);
  }
};

} // namespace

absl::StatusOr<HostTensor> evaluateScan(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  if (x.elementType() != ctx.resultType || x.shape() != ctx.resultShape)
    return ctx.error("operand ", x.typeStr(), " must have the result's type");
  const std::vector<int64_t> &shape = x.shape();
  int64_t dim = ctx.op.intAttrOr("dim", 0);
  if (dim < 0 || static_cast<size_t>(dim) >= shape.size())
    return ctx.error("'dim' ", dim, " is out of range for rank ", shape.size());
  bool exclusive = ctx.op.intAttrOr("exclusive", 0) != 0;
  bool reverse = ctx.op.intAttrOr("reverse", 0) != 0;
  Lines lines(shape, static_cast<size_t>(dim));
  HostTensor result = ctx.makeResult();
  // Along each line, in the scan's order: the sum of the elements before
  // (exclusive) or up to and including (inclusive) each position, in f64
  // for floats (rounded to the result type as every op is) and wrapping at
  // the type's width for integers.
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t r = 0; r < lines.inner; ++r) {
      double floatSum = 0.0;
      uint64_t intSum = 0;
      for (int64_t k = 0; k < lines.length; ++k) {
        size_t at = lines.at(o, lines.reverse(k, reverse), r);
        if (x.isFloat()) {
          if (!exclusive)
            floatSum += x.floats()[at];
          result.floats()[at] = floatSum;
          if (exclusive)
            floatSum += x.floats()[at];
        } else {
          if (!exclusive)
            intSum += static_cast<uint64_t>(x.ints()[at]);
          result.ints()[at] = wrapToIntegerType(static_cast<int64_t>(intSum), ctx.resultType);
          if (exclusive)
            intSum += static_cast<uint64_t>(x.ints()[at]);
        }
      }
    }
  return result;
}

absl::StatusOr<HostTensor> evaluateTopK(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  if (ctx.resultType != ElementType::I64)
    return ctx.error("result must be i64, not ", elementTypeName(ctx.resultType));
  const std::vector<int64_t> &shape = x.shape();
  int64_t dim = ctx.op.intAttrOr("dim", 0);
  if (dim < 0 || static_cast<size_t>(dim) >= shape.size())
    return ctx.error("'dim' ", dim, " is out of range for rank ", shape.size());
  int64_t k = ctx.op.intAttrOr("k", 0);
  bool largest = ctx.op.intAttrOr("largest", 1) != 0;
  Lines in(shape, static_cast<size_t>(dim));
  if (k < 0 || k > in.length)
    return ctx.error("'k' is ", k, " but dim ", dim, " of ", x.typeStr(), " has ", in.length,
                     " elements");
  std::vector<int64_t> expected = shape;
  expected[static_cast<size_t>(dim)] = k;
  if (expected != ctx.resultShape)
    return ctx.error("the result must have k = ", k, " elements along dim ", dim);
  HostTensor result = ctx.makeResult();
  Lines out(ctx.resultShape, static_cast<size_t>(dim));
  // Whether element a of a line goes before element b: larger (smaller);
  // largest first, NaN before every number; smallest first, every number
  // before NaN. Of equal elements (NaNs too) the first along the line goes
  // first.
  auto better = [&](int64_t o, int64_t a, int64_t b, int64_t r) {
    if (!x.isFloat()) {
      int64_t va = x.ints()[in.at(o, a, r)], vb = x.ints()[in.at(o, b, r)];
      return largest ? va > vb : va < vb;
    }
    double va = x.floats()[in.at(o, a, r)], vb = x.floats()[in.at(o, b, r)];
    if (largest)
      return !std::isnan(vb) && (std::isnan(va) || va > vb);
    return !std::isnan(va) && (std::isnan(vb) || va < vb);
  };
  std::vector<int64_t> order(static_cast<size_t>(in.length));
  for (int64_t o = 0; o < in.outer; ++o)
    for (int64_t r = 0; r < in.inner; ++r) {
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
        return better(o, a, b, r) || (!better(o, b, a, r) && a < b);
      });
      for (int64_t j = 0; j < k; ++j)
        result.ints()[out.at(o, j, r)] = order[static_cast<size_t>(j)];
    }
  return result;
}

} // namespace xs::interp
