// dot: batched matrix product [..., M, K] x [..., K, N] -> [..., M, N].
// Floats accumulate in f64; integers modulo 2^64, wrapped to the width.

#include "ir/InterpreterInternal.h"

namespace xs::interp {

absl::StatusOr<HostTensor> evaluateDot(const OpContext &ctx) {
  const HostTensor &a = ctx.operand(0);
  const HostTensor &b = ctx.operand(1);
  if (a.elementType() != b.elementType() || a.elementType() != ctx.resultType)
    return ctx.error("operands ", a.typeStr(), " and ", b.typeStr(),
                     " must both have the result's element type");
  size_t rank = static_cast<size_t>(a.rank());
  bool valid = rank >= 2 && b.rank() == a.rank() && ctx.resultShape.size() == rank;
  for (size_t d = 0; valid && d + 2 < rank; ++d)
    valid = a.shape()[d] == b.shape()[d] && ctx.resultShape[d] == a.shape()[d];
  valid = valid && a.shape()[rank - 1] == b.shape()[rank - 2] &&
          ctx.resultShape[rank - 2] == a.shape()[rank - 2] &&
          ctx.resultShape[rank - 1] == b.shape()[rank - 1];
  if (!valid)
    return ctx.error("operands ", a.typeStr(), " and ", b.typeStr(),
                     " must be [..., M, K] and [..., K, N] giving the result shape");
  int64_t m = a.shape()[rank - 2], k = a.shape()[rank - 1], n = b.shape()[rank - 1];
  int64_t batches = 1;
  for (size_t d = 0; d + 2 < rank; ++d)
    batches *= a.shape()[d];
  HostTensor result = ctx.makeResult();
  for (int64_t batch = 0; batch < batches; ++batch) {
    int64_t aBase = batch * m * k, bBase = batch * k * n, cBase = batch * m * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        size_t c = static_cast<size_t>(cBase + i * n + j);
        if (a.isFloat()) {
          double sum = 0.0;
          for (int64_t p = 0; p < k; ++p)
            sum += a.floats()[static_cast<size_t>(aBase + i * k + p)] *
                   b.floats()[static_cast<size_t>(bBase + p * n + j)];
          result.floats()[c] = sum;
        } else {
          uint64_t sum = 0;
          for (int64_t p = 0; p < k; ++p)
            sum += static_cast<uint64_t>(a.ints()[static_cast<size_t>(aBase + i * k + p)]) *
                   static_cast<uint64_t>(b.ints()[static_cast<size_t>(bBase + p * n + j)]);
          result.ints()[c] = wrapToIntegerType(static_cast<int64_t>(sum), ctx.resultType);
        }
      }
    }
  }
  return result;
}

} // namespace xs::interp
