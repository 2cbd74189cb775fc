// Composite ops evaluated straight from their definitions in docs/ir.md, not
// through the decompose pass, so that tests can check that pass against them.

#include <cmath>
#include <limits>
#include <numbers>

#include "absl/strings/str_join.h"
#include "ir/InterpreterInternal.h"

namespace xs::interp {
namespace {

int64_t product(const std::vector<int64_t> &shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    p *= shape[i];
  return p;
}

/// The `axis` attribute with its default (the last dim), checked.
absl::StatusOr<size_t> axisOf(const OpContext &ctx, const HostTensor &x) {
  int64_t axis = ctx.op.intAttrOr("axis", x.rank() - 1);
  if (absl::Status s = checkAxis(ctx, "axis", axis, x.rank()); !s.ok())
    return s;
  return static_cast<size_t>(axis);
}

/// layer_norm and rms_norm: normalize each row of the trailing dims
/// axis..rank-1, then scale (and shift) by the optional parameters.
absl::StatusOr<HostTensor> evaluateNorm(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  absl::StatusOr<size_t> axis = axisOf(ctx, x);
  if (!axis.ok())
    return axis.status();
  bool layerNorm = ctx.op.kind() == OpKind::LayerNorm;
  double epsilon = ctx.op.floatAttrOr("epsilon", layerNorm ? 1e-5 : 1e-6);
  std::vector<int64_t> rowShape(x.shape().begin() + static_cast<int64_t>(*axis), x.shape().end());
  for (size_t p = 1; p < ctx.operands.size(); ++p)
    if (ctx.operand(p).shape() != rowShape || !ctx.operand(p).isFloat())
      return ctx.error("operand ", p, " is ", ctx.operand(p).typeStr(),
                       " but must be a float tensor of the normalized shape [",
                       absl::StrJoin(rowShape, ", "), "]");
  const HostTensor *scale = ctx.operands.size() > 1 ? ctx.operands[1] : nullptr;
  const HostTensor *shift = ctx.operands.size() > 2 ? ctx.operands[2] : nullptr;
  int64_t rows = product(x.shape(), 0, *axis);
  int64_t n = product(x.shape(), *axis, x.shape().size());
  HostTensor result = ctx.makeResult();
  const std::vector<double> &in = x.floats();
  std::vector<double> &out = result.floats();
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = in.data() + r * n;
    double mean = 0.0, denominator = 0.0;
    if (layerNorm) {
      for (int64_t j = 0; j < n; ++j)
        mean += row[j];
      mean /= static_cast<double>(n);
      double variance = 0.0;
      for (int64_t j = 0; j < n; ++j)
        variance += (row[j] - mean) * (row[j] - mean);
      variance /= static_cast<double>(n);
      denominator = std::sqrt(variance + epsilon);
    } else {
      double meanSquare = 0.0;
      for (int64_t j = 0; j < n; ++j)
        meanSquare += row[j] * row[j];
      meanSquare /= static_cast<double>(n);
      denominator = std::sqrt(meanSquare + epsilon);
    }
    for (int64_t j = 0; j < n; ++j) {
      double y = (row[j] - mean) / denominator;
      if (scale)
        y *= scale->floats()[static_cast<size_t>(j)];
      if (shift)
        y += shift->floats()[static_cast<size_t>(j)];
      out[static_cast<size_t>(r * n + j)] = y;
    }
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateSoftmax(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  absl::StatusOr<size_t> axis = axisOf(ctx, x);
  if (!axis.ok())
    return axis.status();
  bool logarithmic = ctx.op.kind() == OpKind::LogSoftmax;
  int64_t outer = product(x.shape(), 0, *axis);
  int64_t length = x.shape()[*axis];
  int64_t inner = product(x.shape(), *axis + 1, x.shape().size());
  HostTensor result = ctx.makeResult();
  const std::vector<double> &in = x.floats();
  std::vector<double> &out = result.floats();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      auto at = [&](int64_t j) { return static_cast<size_t>((o * length + j) * inner + r); };
      double maximum = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < length; ++j)
        maximum = nanMax(maximum, in[at(j)]);
      double sum = 0.0;
      for (int64_t j = 0; j < length; ++j)
        sum += std::exp(in[at(j)] - maximum);
      for (int64_t j = 0; j < length; ++j) {
        double shifted = in[at(j)] - maximum;
        out[at(j)] = logarithmic ? shifted - std::log(sum) : std::exp(shifted) / sum;
      }
    }
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateGelu(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  std::string approximate = ctx.op.enumAttrOr("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return ctx.error("'approximate' is '", approximate, "' but must be none or tanh");
  HostTensor result = ctx.makeResult();
  const double sqrt2OverPi = std::sqrt(2.0 / std::numbers::pi);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.floats()[static_cast<size_t>(i)];
    double gate = approximate == "none" ? std::erf(v / std::numbers::sqrt2)
                                        : std::tanh(sqrt2OverPi * (v + 0.044715 * v * v * v));
    result.floats()[static_cast<size_t>(i)] = 0.5 * v * (1.0 + gate);
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateComposite(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  if (!x.isFloat() || x.elementType() != ctx.resultType || x.shape() != ctx.resultShape)
    return ctx.error("operand ", x.typeStr(), " must be a float tensor of the result's type");
  switch (ctx.op.info().rule) {
  case TypeRule::LayerNorm:
  case TypeRule::RmsNorm:
    return evaluateNorm(ctx);
  case TypeRule::Softmax:
    return evaluateSoftmax(ctx);
  case TypeRule::Gelu:
    return evaluateGelu(ctx);
  default:
    break;
  }
  return ctx.error("not a composite op");
}

} // namespace xs::interp
