// ONNX normalizations and softmaxes: Softmax, LogSoftmax, Hardmax,
// LayerNormalization, BatchNormalization, InstanceNormalization and
// MeanVarianceNormalization. Softmax, LogSoftmax and a LayerNormalization
// that gives only its result become xstitch's composites (decomposed and
// stitched like the text-IR workloads); the others are written out.

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

/// Before opset 13, Softmax, LogSoftmax and Hardmax work on the input
/// flattened to 2-D at `axis` (default 1); from 13 on one axis (default -1).
struct SoftmaxView {
  Value *x = nullptr;         // the input, flattened where the old opsets say so
  int64_t axis = 0;           // in x
  std::vector<DimExpr> shape; // the input's shape, for the result
};

absl::StatusOr<SoftmaxView> softmaxView(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  SoftmaxView view;
  view.shape = x->type().shape();
  int64_t rank = x->type().rank();
  if (c.opset() >= 13) {
    XS_ASSIGN_OR_RETURN(view.axis, c.normalizeAxis(c.intAttr("axis", -1), rank, "axis"));
    view.x = x;
    return view;
  }
  int64_t axis = c.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return c.error(strCat("axis ", c.intAttr("axis", 1), " is out of range for rank ", rank));
  std::vector<DimExpr> outer(view.shape.begin(), view.shape.begin() + axis);
  std::vector<DimExpr> inner(view.shape.begin() + axis, view.shape.end());
  XS_ASSIGN_OR_RETURN(view.x, c.reshape(x, {dimProduct(outer), dimProduct(inner)}));
  view.axis = 1;
  return view;
}

template <OpKind Kind> absl::Status importSoftmax(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(SoftmaxView view, softmaxView(c));
  XS_ASSIGN_OR_RETURN(Value * y,
                      c.create(Kind, {view.x}, {{"axis", Attribute::integer(view.axis)}}));
  XS_ASSIGN_OR_RETURN(y, c.reshape(y, view.shape));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// One-hot of the first maximum along the axis.
absl::Status importHardmax(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(SoftmaxView view, softmaxView(c));
  const TensorType &type = view.x->type();
  XS_ASSIGN_OR_RETURN(Value * arg,
                      c.create(OpKind::ArgMax, {view.x}, {{"dim", Attribute::integer(view.axis)}}));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < type.rank(); ++d)
    if (d != view.axis)
      dims.push_back(d);
  TensorType indexType(ElementType::I64, type.shape());
  XS_ASSIGN_OR_RETURN(Value * wide, c.create(OpKind::Broadcast, {arg},
                                             {{"dims", Attribute::intList(dims)}}, indexType));
  XS_ASSIGN_OR_RETURN(Value * iota, c.create(OpKind::Iota, {},
                                             {{"dim", Attribute::integer(view.axis)}}, indexType));
  XS_ASSIGN_OR_RETURN(Value * hot, c.compare("eq", wide, iota));
  XS_ASSIGN_OR_RETURN(Value * y, c.cast(hot, type.elementType()));
  XS_ASSIGN_OR_RETURN(y, c.reshape(y, view.shape));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// The mean of x over `dims`, with those dims kept as 1s.
absl::StatusOr<Value *> meanKeep(ImportContext &c, Value *x, const std::vector<int64_t> &dims) {
  const TensorType &type = x->type();
  DimExpr count(1);
  std::vector<DimExpr> kept = type.shape();
  for (int64_t d : dims) {
    count = count * type.dim(d);
    kept[static_cast<size_t>(d)] = DimExpr(1);
  }
  XS_ASSIGN_OR_RETURN(Value * sum,
                      c.create(OpKind::ReduceSum, {x}, {{"dims", Attribute::intList(dims)}}));
  XS_ASSIGN_OR_RETURN(Value * divisor, c.dimScalar(count, type.elementType()));
  XS_ASSIGN_OR_RETURN(Value * mean, c.binary(OpKind::Div, sum, divisor));
  return c.reshape(mean, kept);
}

/// (x - mean) * rsqrt(var + eps) over `dims` (biased variance), and the mean
/// and the inverse standard deviation with the dims kept.
struct Normalized {
  Value *y = nullptr, *mean = nullptr, *invStd = nullptr, *var = nullptr;
};

absl::StatusOr<Normalized> normalize(ImportContext &c, Value *x, const std::vector<int64_t> &dims,
                                     double epsilon) {
  Normalized n;
  XS_ASSIGN_OR_RETURN(n.mean, meanKeep(c, x, dims));
  XS_ASSIGN_OR_RETURN(Value * centered, c.binary(OpKind::Sub, x, n.mean));
  XS_ASSIGN_OR_RETURN(Value * squares, c.binary(OpKind::Mul, centered, centered));
  XS_ASSIGN_OR_RETURN(n.var, meanKeep(c, squares, dims));
  XS_ASSIGN_OR_RETURN(Value * eps, c.scalarLike(epsilon, n.var));
  XS_ASSIGN_OR_RETURN(Value * shifted, c.binary(OpKind::Add, n.var, eps));
  XS_ASSIGN_OR_RETURN(n.invStd, c.unary(OpKind::Rsqrt, shifted));
  XS_ASSIGN_OR_RETURN(n.y, c.binary(OpKind::Mul, centered, n.invStd));
  return n;
}

/// x (shape `channels`-long vector) broadcast along dim 1 of `like`.
absl::StatusOr<Value *> perChannel(ImportContext &c, Value *v, const TensorType &like) {
  if (v->type().rank() != 1)
    return c.error(strCat("per-channel operands must be vectors, got ", v->type().str()));
  return c.create(OpKind::Broadcast, {v}, {{"dims", Attribute::intList({1})}},
                  TensorType(v->type().elementType(), like.shape()));
}

absl::Status importLayerNormalization(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * scale, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * bias, c.optionalInput(2));
  const TensorType type = x->type();
  XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(c.intAttr("axis", -1), type.rank(), "axis"));
  double epsilon = c.floatAttr("epsilon", 1e-5);
  std::vector<DimExpr> normalizedShape(type.shape().begin() + axis, type.shape().end());
  TensorType paramType(type.elementType(), normalizedShape);
  XS_ASSIGN_OR_RETURN(scale, c.broadcastTo(scale, normalizedShape));
  if (bias) {
    XS_ASSIGN_OR_RETURN(bias, c.broadcastTo(bias, normalizedShape));
  }
  if (!c.hasOutput(1) && !c.hasOutput(2)) {
    std::vector<Value *> operands = {x, scale};
    if (bias)
      operands.push_back(bias);
    XS_ASSIGN_OR_RETURN(Value * y, c.create(OpKind::LayerNorm, operands,
                                            {{"axis", Attribute::integer(axis)},
                                             {"epsilon", Attribute::floating(epsilon)}}));
    c.setOutput(0, y);
    return absl::OkStatus();
  }
  std::vector<int64_t> dims;
  for (int64_t d = axis; d < type.rank(); ++d)
    dims.push_back(d);
  XS_ASSIGN_OR_RETURN(Normalized n, normalize(c, x, dims, epsilon));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Mul, n.y, scale));
  if (bias) {
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Add, y, bias));
  }
  c.setOutput(0, y);
  c.setOutput(1, n.mean);
  c.setOutput(2, n.invStd);
  return absl::OkStatus();
}

/// Inference: the given statistics; training mode (opset 14 on): the
/// batch's, with the running statistics as further outputs.
absl::Status importBatchNormalization(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * scale, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * bias, c.input(2));
  XS_ASSIGN_OR_RETURN(Value * mean, c.input(3));
  XS_ASSIGN_OR_RETURN(Value * var, c.input(4));
  const TensorType type = x->type();
  if (type.rank() < 2)
    return c.error(strCat("needs an input of rank 2 or more, got ", type.str()));
  double epsilon = c.floatAttr("epsilon", 1e-5);
  bool training = c.opset() >= 14 && c.intAttr("training_mode", 0) != 0;
  if (!training && c.opset() < 14 && c.hasOutput(1))
    return c.unsupported("training outputs before opset 14");
  XS_ASSIGN_OR_RETURN(Value * s, perChannel(c, scale, type));
  XS_ASSIGN_OR_RETURN(Value * b, perChannel(c, bias, type));
  Value *normalized = nullptr;
  if (training) {
    std::vector<int64_t> dims = {0};
    for (int64_t d = 2; d < type.rank(); ++d)
      dims.push_back(d);
    XS_ASSIGN_OR_RETURN(Normalized n, normalize(c, x, dims, epsilon));
    normalized = n.y;
    double momentum = c.floatAttr("momentum", 0.9);
    auto running = [&](Value *given, Value *current) -> absl::StatusOr<Value *> {
      XS_ASSIGN_OR_RETURN(Value * flat, c.reshape(current, given->type().shape()));
      XS_ASSIGN_OR_RETURN(Value * m, c.scalarLike(momentum, given));
      XS_ASSIGN_OR_RETURN(Value * rest, c.scalarLike(1.0 - momentum, given));
      XS_ASSIGN_OR_RETURN(Value * kept, c.binary(OpKind::Mul, given, m));
      XS_ASSIGN_OR_RETURN(Value * added, c.binary(OpKind::Mul, flat, rest));
      return c.binary(OpKind::Add, kept, added);
    };
    if (c.hasOutput(1)) {
      XS_ASSIGN_OR_RETURN(Value * runningMean, running(mean, n.mean));
      c.setOutput(1, runningMean);
    }
    if (c.hasOutput(2)) {
      XS_ASSIGN_OR_RETURN(Value * runningVar, running(var, n.var));
      c.setOutput(2, runningVar);
    }
  } else {
    XS_ASSIGN_OR_RETURN(Value * m, perChannel(c, mean, type));
    XS_ASSIGN_OR_RETURN(Value * v, perChannel(c, var, type));
    XS_ASSIGN_OR_RETURN(Value * eps, c.scalarLike(epsilon, v));
    XS_ASSIGN_OR_RETURN(Value * shifted, c.binary(OpKind::Add, v, eps));
    XS_ASSIGN_OR_RETURN(Value * inv, c.unary(OpKind::Rsqrt, shifted));
    XS_ASSIGN_OR_RETURN(Value * centered, c.binary(OpKind::Sub, x, m));
    XS_ASSIGN_OR_RETURN(normalized, c.binary(OpKind::Mul, centered, inv));
  }
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Mul, normalized, s));
  XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Add, y, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importInstanceNormalization(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * scale, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * bias, c.input(2));
  const TensorType type = x->type();
  if (type.rank() < 3)
    return c.error(strCat("needs an input of rank 3 or more, got ", type.str()));
  std::vector<int64_t> dims;
  for (int64_t d = 2; d < type.rank(); ++d)
    dims.push_back(d);
  XS_ASSIGN_OR_RETURN(Normalized n, normalize(c, x, dims, c.floatAttr("epsilon", 1e-5)));
  XS_ASSIGN_OR_RETURN(Value * s, perChannel(c, scale, type));
  XS_ASSIGN_OR_RETURN(Value * b, perChannel(c, bias, type));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Mul, n.y, s));
  XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Add, y, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
absl::Status importMeanVarianceNormalization(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  int64_t rank = x->type().rank();
  std::vector<int64_t> axes =
      c.hasAttr("axes") ? c.intsAttr("axes") : std::vector<int64_t>{0, 2, 3};
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    XS_ASSIGN_OR_RETURN(int64_t axis, c.normalizeAxis(a, rank, "axis"));
    reduced[static_cast<size_t>(axis)] = true;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[static_cast<size_t>(d)])
      dims.push_back(d);
  XS_ASSIGN_OR_RETURN(Value * mean, meanKeep(c, x, dims));
  XS_ASSIGN_OR_RETURN(Value * squares, c.binary(OpKind::Mul, x, x));
  XS_ASSIGN_OR_RETURN(Value * meanOfSquares, meanKeep(c, squares, dims));
  XS_ASSIGN_OR_RETURN(Value * squaredMean, c.binary(OpKind::Mul, mean, mean));
  XS_ASSIGN_OR_RETURN(Value * var, c.binary(OpKind::Sub, meanOfSquares, squaredMean));
  XS_ASSIGN_OR_RETURN(Value * std, c.unary(OpKind::Sqrt, var));
  XS_ASSIGN_OR_RETURN(Value * eps, c.scalarLike(1e-9, std));
  XS_ASSIGN_OR_RETURN(Value * den, c.binary(OpKind::Add, std, eps));
  XS_ASSIGN_OR_RETURN(Value * centered, c.binary(OpKind::Sub, x, mean));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Div, centered, den));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addNormalizationImporters(ImporterTable &table) {
  table["Softmax"] = {importSoftmax<OpKind::Softmax>, 1};
  table["LogSoftmax"] = {importSoftmax<OpKind::LogSoftmax>, 1};
  table["Hardmax"] = {importHardmax, 1};
  table["LayerNormalization"] = {importLayerNormalization, 17};
  table["BatchNormalization"] = {importBatchNormalization, 7};
  table["InstanceNormalization"] = {importInstanceNormalization, 6};
  table["MeanVarianceNormalization"] = {importMeanVarianceNormalization, 9};
}

} // namespace xs
