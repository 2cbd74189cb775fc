#include "transforms/Decompose.h"

#include <cmath>
#include <numbers>

#include "absl/container/flat_hash_set.h"
#include "ir/Builder.h"

namespace xs {

namespace {

/// Emits the primitives of one composite op, just before it, at its location.
class CompositeExpander {
public:
  CompositeExpander(Function &function, Operation &op)
      : op_(op), builder_(function, &op, op.loc()), elementType_(op.type().elementType()) {}

  absl::StatusOr<Value *> expand() {
    switch (op_.kind()) {
    case OpKind::LayerNorm:
      return expandLayerNorm();
    case OpKind::RmsNorm:
      return expandRmsNorm();
    case OpKind::Softmax:
      return expandSoftmax(/*logarithmic=*/false);
    case OpKind::LogSoftmax:
      return expandSoftmax(/*logarithmic=*/true);
    case OpKind::Gelu:
      return expandGelu();
    default:
      return errorAtCat(op_.loc(), "decompose: no expansion for composite '",
                        std::string(op_.mnemonic()), "'");
    }
  }

private:
  absl::StatusOr<int64_t> axis() {
    int64_t rank = op_.operand(0)->type().rank();
    int64_t axis = op_.intAttrOr("axis", rank - 1);
    if (axis < 0 || axis >= rank)
      return errorAtCat(op_.loc(), std::string(op_.mnemonic()), ": axis ", axis,
                        " is out of range for an operand of rank ", rank);
    return axis;
  }

  /// A constant holding `value` in every element of `shape` (integers: its
  /// integer part).
  absl::StatusOr<Value *> splat(double value, const std::vector<DimExpr> &shape) {
    LiteralValue literal;
    literal.isInteger = !isFloat(elementType_);
    if (literal.isInteger)
      literal.ints = {static_cast<int64_t>(value)};
    else
      literal.floats = {value};
    return builder_.create(OpKind::Constant, {}, {{"value", Attribute::literal(literal)}},
                           TensorType(elementType_, shape));
  }

  absl::StatusOr<Value *> unary(OpKind kind, Value *x) { return builder_.create(kind, {x}); }
  absl::StatusOr<Value *> binary(OpKind kind, Value *a, Value *b) {
    return builder_.create(kind, {a, b});
  }
  /// `kind(x, splat(value))` with the splat shaped like x.
  absl::StatusOr<Value *> binaryWithSplat(OpKind kind, Value *x, double value) {
    absl::StatusOr<Value *> c = splat(value, x->type().shape());
    if (!c.ok())
      return c.status();
    return binary(kind, x, *c);
  }
  absl::StatusOr<Value *> reduce(OpKind kind, Value *x, std::vector<int64_t> dims) {
    return builder_.create(kind, {x}, {{"dims", Attribute::intList(std::move(dims))}});
  }
  /// Broadcasts `x` to `shape`, its dim i going to result dim dims[i].
  absl::StatusOr<Value *> broadcast(Value *x, std::vector<int64_t> dims,
                                    const std::vector<DimExpr> &shape) {
    return builder_.create(OpKind::Broadcast, {x}, {{"dims", Attribute::intList(std::move(dims))}},
                           TensorType(elementType_, shape));
  }

  /// mean over dims axis..rank-1 of `x`, shaped like x.shape[:axis]: the sum
  /// times 1/n, n being the number of normalized elements.
  absl::StatusOr<Value *> meanOverTrailingDims(Value *x, int64_t axis) {
    const std::vector<DimExpr> &shape = x->type().shape();
    std::vector<int64_t> dims;
    for (int64_t d = axis; d < x->type().rank(); ++d)
      dims.push_back(d);
    std::vector<DimExpr> outer(shape.begin(), shape.begin() + axis);
    std::vector<DimExpr> inner(shape.begin() + axis, shape.end());
    absl::StatusOr<Value *> sum = reduce(OpKind::ReduceSum, x, dims);
    if (!sum.ok())
      return sum;
    DimExpr count = dimProduct(inner);
    if (std::optional<int64_t> n = count.constantValue())
      return binaryWithSplat(OpKind::Mul, *sum, 1.0 / static_cast<double>(*n));
    // A symbolic n is counted at run time: summing a splat 1 of the normalized
    // shape (not of the whole input) costs one row's worth of work, is exact
    // up to 2^24 elements even in f32, and stays shape-generic. The scalar is
    // then broadcast to the row shape like the sums it scales.
    std::vector<int64_t> allInner;
    for (size_t d = 0; d < inner.size(); ++d)
      allInner.push_back(static_cast<int64_t>(d));
    absl::StatusOr<Value *> ones = splat(1.0, inner);
    if (!ones.ok())
      return ones;
    absl::StatusOr<Value *> n = reduce(OpKind::ReduceSum, *ones, allInner);
    if (!n.ok())
      return n;
    absl::StatusOr<Value *> inverse = unary(OpKind::Reciprocal, *n);
    if (!inverse.ok())
      return inverse;
    if (outer.empty())
      return binary(OpKind::Mul, *sum, *inverse);
    absl::StatusOr<Value *> inverseRows = broadcast(*inverse, {}, outer);
    if (!inverseRows.ok())
      return inverseRows;
    return binary(OpKind::Mul, *sum, *inverseRows);
  }

  /// Broadcasts a per-row value (shape x.shape[:axis]) back to `shape`.
  absl::StatusOr<Value *> broadcastRows(Value *rows, int64_t axis,
                                        const std::vector<DimExpr> &shape) {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < axis; ++d)
      dims.push_back(d);
    return broadcast(rows, dims, shape);
  }

  /// Broadcasts a parameter shaped x.shape[axis:] (gamma, beta, w) to `shape`.
  absl::StatusOr<Value *> broadcastTrailing(Value *param, int64_t axis,
                                            const std::vector<DimExpr> &shape) {
    std::vector<int64_t> dims;
    for (int64_t d = axis; d < static_cast<int64_t>(shape.size()); ++d)
      dims.push_back(d);
    return broadcast(param, dims, shape);
  }

  /// (x - mean) * rsqrt(var + eps) * gamma + beta. rsqrt of the per-row
  /// variance times x is the docs' division by sqrt(var + eps) with one
  /// expensive op per row instead of a division per element.
  absl::StatusOr<Value *> expandLayerNorm() {
    absl::StatusOr<int64_t> a = axis();
    if (!a.ok())
      return a.status();
    Value *x = op_.operand(0);
    const std::vector<DimExpr> &shape = x->type().shape();
    double epsilon = op_.floatAttrOr("epsilon", 1e-5);
    absl::StatusOr<Value *> mean = meanOverTrailingDims(x, *a);
    if (!mean.ok())
      return mean;
    absl::StatusOr<Value *> meanFull = broadcastRows(*mean, *a, shape);
    if (!meanFull.ok())
      return meanFull;
    absl::StatusOr<Value *> centered = binary(OpKind::Sub, x, *meanFull);
    if (!centered.ok())
      return centered;
    absl::StatusOr<Value *> squared = binary(OpKind::Mul, *centered, *centered);
    if (!squared.ok())
      return squared;
    absl::StatusOr<Value *> variance = meanOverTrailingDims(*squared, *a);
    if (!variance.ok())
      return variance;
    absl::StatusOr<Value *> y = normalize(*centered, *variance, epsilon, *a);
    if (!y.ok())
      return y;
    if (op_.numOperands() > 1) {
      absl::StatusOr<Value *> gamma = broadcastTrailing(op_.operand(1), *a, shape);
      if (!gamma.ok())
        return gamma;
      if (y = binary(OpKind::Mul, *y, *gamma); !y.ok())
        return y;
    }
    if (op_.numOperands() > 2) {
      absl::StatusOr<Value *> beta = broadcastTrailing(op_.operand(2), *a, shape);
      if (!beta.ok())
        return beta;
      if (y = binary(OpKind::Add, *y, *beta); !y.ok())
        return y;
    }
    return y;
  }

  /// x * broadcast(rsqrt(meanSquare + eps)).
  absl::StatusOr<Value *> normalize(Value *x, Value *meanSquare, double epsilon, int64_t axis) {
    absl::StatusOr<Value *> shifted = binaryWithSplat(OpKind::Add, meanSquare, epsilon);
    if (!shifted.ok())
      return shifted;
    absl::StatusOr<Value *> scale = unary(OpKind::Rsqrt, *shifted);
    if (!scale.ok())
      return scale;
    absl::StatusOr<Value *> scaleFull = broadcastRows(*scale, axis, x->type().shape());
    if (!scaleFull.ok())
      return scaleFull;
    return binary(OpKind::Mul, x, *scaleFull);
  }

  absl::StatusOr<Value *> expandRmsNorm() {
    absl::StatusOr<int64_t> a = axis();
    if (!a.ok())
      return a.status();
    Value *x = op_.operand(0);
    double epsilon = op_.floatAttrOr("epsilon", 1e-6);
    absl::StatusOr<Value *> squared = binary(OpKind::Mul, x, x);
    if (!squared.ok())
      return squared;
    absl::StatusOr<Value *> meanSquare = meanOverTrailingDims(*squared, *a);
    if (!meanSquare.ok())
      return meanSquare;
    absl::StatusOr<Value *> y = normalize(x, *meanSquare, epsilon, *a);
    if (!y.ok() || op_.numOperands() < 2)
      return y;
    absl::StatusOr<Value *> weight = broadcastTrailing(op_.operand(1), *a, x->type().shape());
    if (!weight.ok())
      return weight;
    return binary(OpKind::Mul, *y, *weight);
  }

  /// softmax: exp(x - max) * (1 / sum(exp(x - max))), one reciprocal per row
  /// instead of a division per element (as PyTorch's and oneDNN's kernels
  /// compute it; within an ulp of the quotient);
  /// log_softmax: (x - max) - log(sum(exp(x - max))); both along the axis.
  absl::StatusOr<Value *> expandSoftmax(bool logarithmic) {
    absl::StatusOr<int64_t> a = axis();
    if (!a.ok())
      return a.status();
    Value *x = op_.operand(0);
    const std::vector<DimExpr> &shape = x->type().shape();
    std::vector<int64_t> keptDims;
    for (int64_t d = 0; d < x->type().rank(); ++d)
      if (d != *a)
        keptDims.push_back(d);
    absl::StatusOr<Value *> max = reduce(OpKind::ReduceMax, x, {*a});
    if (!max.ok())
      return max;
    absl::StatusOr<Value *> maxFull = broadcast(*max, keptDims, shape);
    if (!maxFull.ok())
      return maxFull;
    absl::StatusOr<Value *> shifted = binary(OpKind::Sub, x, *maxFull);
    if (!shifted.ok())
      return shifted;
    absl::StatusOr<Value *> exps = unary(OpKind::Exp, *shifted);
    if (!exps.ok())
      return exps;
    absl::StatusOr<Value *> sum = reduce(OpKind::ReduceSum, *exps, {*a});
    if (!sum.ok())
      return sum;
    if (!logarithmic) {
      absl::StatusOr<Value *> inverse = unary(OpKind::Reciprocal, *sum);
      if (!inverse.ok())
        return inverse;
      absl::StatusOr<Value *> inverseFull = broadcast(*inverse, keptDims, shape);
      if (!inverseFull.ok())
        return inverseFull;
      return binary(OpKind::Mul, *exps, *inverseFull);
    }
    absl::StatusOr<Value *> logSum = unary(OpKind::Log, *sum);
    if (!logSum.ok())
      return logSum;
    absl::StatusOr<Value *> logSumFull = broadcast(*logSum, keptDims, shape);
    if (!logSumFull.ok())
      return logSumFull;
    return binary(OpKind::Sub, *shifted, *logSumFull);
  }

  /// none: 0.5 x (1 + erf(x / sqrt(2)));
  /// tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  absl::StatusOr<Value *> expandGelu() {
    Value *x = op_.operand(0);
    std::string approximate = op_.enumAttrOr("approximate", "none");
    absl::StatusOr<Value *> inner;
    if (approximate == "none") {
      absl::StatusOr<Value *> scaled = binaryWithSplat(OpKind::Div, x, std::sqrt(2.0));
      if (!scaled.ok())
        return scaled;
      inner = unary(OpKind::Erf, *scaled);
    } else if (approximate == "tanh") {
      absl::StatusOr<Value *> square = binary(OpKind::Mul, x, x);
      if (!square.ok())
        return square;
      absl::StatusOr<Value *> cube = binary(OpKind::Mul, *square, x);
      if (!cube.ok())
        return cube;
      absl::StatusOr<Value *> cubeTerm = binaryWithSplat(OpKind::Mul, *cube, 0.044715);
      if (!cubeTerm.ok())
        return cubeTerm;
      absl::StatusOr<Value *> sum = binary(OpKind::Add, x, *cubeTerm);
      if (!sum.ok())
        return sum;
      absl::StatusOr<Value *> scaled =
          binaryWithSplat(OpKind::Mul, *sum, std::sqrt(2.0 / std::numbers::pi));
      if (!scaled.ok())
        return scaled;
      inner = unary(OpKind::Tanh, *scaled);
    } else {
      return errorAtCat(op_.loc(), "gelu: approximate = ", approximate,
                        " is not supported; use none or tanh");
    }
    if (!inner.ok())
      return inner;
    absl::StatusOr<Value *> half = binaryWithSplat(OpKind::Mul, x, 0.5);
    if (!half.ok())
      return half;
    absl::StatusOr<Value *> onePlus = binaryWithSplat(OpKind::Add, *inner, 1.0);
    if (!onePlus.ok())
      return onePlus;
    return binary(OpKind::Mul, *half, *onePlus);
  }

  Operation &op_;
  Builder builder_;
  ElementType elementType_;
};

} // namespace

absl::StatusOr<bool> runDecompose(Function &function) {
  std::vector<Operation *> composites;
  for (const auto &op : function.ops())
    if (op->info().category == OpCategory::Composite)
      composites.push_back(op.get());
  for (Operation *op : composites) {
    absl::StatusOr<Value *> replacement = CompositeExpander(function, *op).expand();
    if (!replacement.ok())
      return replacement.status();
    function.replaceAllUsesWith(op->result(), *replacement);
  }
  if (composites.empty())
    return false;
  absl::flat_hash_set<const Operation *> expanded(composites.begin(), composites.end());
  function.eraseOpsIf([&](const Operation &op) { return expanded.contains(&op); });
  return true;
}

} // namespace xs
