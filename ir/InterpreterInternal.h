#ifndef XSTITCH_IR_INTERPRETERINTERNAL_H
#define XSTITCH_IR_INTERPRETERINTERNAL_H

// Private to the reference interpreter (ir/Interpret*.cpp): the context one op
// is evaluated in, the per-family entry points and index helpers.

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"

namespace xs::interp {

/// One op with its concrete operands and its result's concrete type.
struct OpContext {
  const Operation &op;
  const std::vector<const HostTensor *> &operands;
  const DimBindings &bindings;
  ElementType resultType;
  std::vector<int64_t> resultShape;

  const HostTensor &operand(size_t i) const { return *operands[i]; }
  /// An error located at the op: "<mnemonic>: <pieces>".
  template <typename... Args> absl::Status error(const Args &...args) const {
    return errorAtCat(op.loc(), op.mnemonic(), ": ", args...);
  }
  /// The result tensor, zero-filled.
  HostTensor makeResult() const { return HostTensor(resultType, resultShape); }
};

absl::StatusOr<HostTensor> evaluateElementwise(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateSource(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateMovement(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateGather(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateReduce(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateScan(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateTopK(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateComposite(const OpContext &ctx);
absl::StatusOr<HostTensor> evaluateDot(const OpContext &ctx);

/// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape);
/// The multi-index of row-major position `linear` in `shape`.
void unravelIndex(int64_t linear, const std::vector<int64_t> &shape, std::vector<int64_t> &index);
/// The row-major position of `index` given `strides`.
int64_t linearIndex(const std::vector<int64_t> &index, const std::vector<int64_t> &strides);

/// Copies element `from` of `src` to element `to` of `dst` (same storage kind).
inline void copyElement(const HostTensor &src, int64_t from, HostTensor &dst, int64_t to) {
  if (src.isFloat())
    dst.floats()[static_cast<size_t>(to)] = src.floats()[static_cast<size_t>(from)];
  else
    dst.ints()[static_cast<size_t>(to)] = src.ints()[static_cast<size_t>(from)];
}

/// Maximum and minimum that propagate NaN and order -0 below +0.
inline double nanMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
inline double nanMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// The value of an integer-list attribute, or `dflt` when it is absent.
std::vector<int64_t> intListAttrOr(const Operation &op, std::string_view name,
                                   std::vector<int64_t> dflt);
/// Evaluates a dimension-list attribute with the bindings.
absl::StatusOr<std::vector<int64_t>> evaluateDimListAttr(const OpContext &ctx,
                                                         std::string_view name);
/// Checks that an axis attribute lies in [0, rank).
absl::Status checkAxis(const OpContext &ctx, std::string_view name, int64_t axis, int64_t rank);

} // namespace xs::interp

#endif // XSTITCH_IR_INTERPRETERINTERNAL_H
