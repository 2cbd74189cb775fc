// ONNX activation functions, each composed from xstitch's element-wise ops
// with the formula of the ONNX operator spec (docs/onnx.md).

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

absl::StatusOr<Value *> scalar(ImportContext &c, double v, Value *like) {
  return c.scalarLike(v, like);
}

/// alpha * (exp(x) - 1).
absl::StatusOr<Value *> expm1Times(ImportContext &c, Value *x, double alpha) {
  XS_ASSIGN_OR_RETURN(Value * e, c.unary(OpKind::Exp, x));
  XS_ASSIGN_OR_RETURN(Value * one, scalar(c, 1.0, x));
  XS_ASSIGN_OR_RETURN(Value * em1, c.binary(OpKind::Sub, e, one));
  XS_ASSIGN_OR_RETURN(Value * a, scalar(c, alpha, x));
  return c.binary(OpKind::Mul, a, em1);
}

absl::StatusOr<Value *> relu(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  return c.binary(OpKind::Max, x, zero);
}

absl::StatusOr<Value *> leakyRelu(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * negative, c.compare("lt", x, zero));
  XS_ASSIGN_OR_RETURN(Value * alpha, scalar(c, c.floatAttr("alpha", 0.01), x));
  XS_ASSIGN_OR_RETURN(Value * scaled, c.binary(OpKind::Mul, alpha, x));
  return c.select(negative, scaled, x);
}

absl::StatusOr<Value *> elu(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * negative, c.compare("lt", x, zero));
  XS_ASSIGN_OR_RETURN(Value * low, expm1Times(c, x, c.floatAttr("alpha", 1.0)));
  return c.select(negative, low, x);
}

absl::StatusOr<Value *> selu(ImportContext &c, Value *x) {
  double alpha = c.floatAttr("alpha", 1.67326319217681884765625);
  double gamma = c.floatAttr("gamma", 1.05070102214813232421875);
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * positive, c.compare("gt", x, zero));
  XS_ASSIGN_OR_RETURN(Value * low, expm1Times(c, x, alpha));
  XS_ASSIGN_OR_RETURN(Value * inner, c.select(positive, x, low));
  XS_ASSIGN_OR_RETURN(Value * g, scalar(c, gamma, x));
  return c.binary(OpKind::Mul, g, inner);
}

/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
absl::StatusOr<Value *> celu(ImportContext &c, Value *x) {
  double alpha = c.floatAttr("alpha", 1.0);
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * a, scalar(c, alpha, x));
  XS_ASSIGN_OR_RETURN(Value * scaled, c.binary(OpKind::Div, x, a));
  XS_ASSIGN_OR_RETURN(Value * low, expm1Times(c, scaled, alpha));
  XS_ASSIGN_OR_RETURN(Value * lowPart, c.binary(OpKind::Min, zero, low));
  XS_ASSIGN_OR_RETURN(Value * highPart, c.binary(OpKind::Max, zero, x));
  return c.binary(OpKind::Add, highPart, lowPart);
}

absl::StatusOr<Value *> thresholdedRelu(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * alpha, scalar(c, c.floatAttr("alpha", 1.0), x));
  XS_ASSIGN_OR_RETURN(Value * above, c.compare("gt", x, alpha));
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  return c.select(above, x, zero);
}

/// clamp(alpha * x + beta, 0, 1).
absl::StatusOr<Value *> hardSigmoidWith(ImportContext &c, Value *x, double alpha, double beta) {
  XS_ASSIGN_OR_RETURN(Value * a, scalar(c, alpha, x));
  XS_ASSIGN_OR_RETURN(Value * b, scalar(c, beta, x));
  XS_ASSIGN_OR_RETURN(Value * ax, c.binary(OpKind::Mul, a, x));
  XS_ASSIGN_OR_RETURN(Value * line, c.binary(OpKind::Add, ax, b));
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * one, scalar(c, 1.0, x));
  XS_ASSIGN_OR_RETURN(Value * low, c.binary(OpKind::Max, line, zero));
  return c.binary(OpKind::Min, low, one);
}

absl::StatusOr<Value *> hardSigmoid(ImportContext &c, Value *x) {
  return hardSigmoidWith(c, x, c.floatAttr("alpha", 0.2), c.floatAttr("beta", 0.5));
}

absl::StatusOr<Value *> hardSwish(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * gate, hardSigmoidWith(c, x, 1.0 / 6.0, 0.5));
  return c.binary(OpKind::Mul, x, gate);
}

/// log(exp(x) + 1), as log1p(exp(x)).
absl::StatusOr<Value *> softplus(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * e, c.unary(OpKind::Exp, x));
  return c.unary(OpKind::Log1p, e);
}

absl::StatusOr<Value *> softsign(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * a, c.unary(OpKind::Abs, x));
  XS_ASSIGN_OR_RETURN(Value * one, scalar(c, 1.0, x));
  XS_ASSIGN_OR_RETURN(Value * den, c.binary(OpKind::Add, one, a));
  return c.binary(OpKind::Div, x, den);
}

/// x < -lambd: x + bias; x > lambd: x - bias; else 0.
absl::StatusOr<Value *> shrink(ImportContext &c, Value *x) {
  double lambd = c.floatAttr("lambd", 0.5), bias = c.floatAttr("bias", 0.0);
  XS_ASSIGN_OR_RETURN(Value * lo, scalar(c, -lambd, x));
  XS_ASSIGN_OR_RETURN(Value * hi, scalar(c, lambd, x));
  XS_ASSIGN_OR_RETURN(Value * b, scalar(c, bias, x));
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * below, c.compare("lt", x, lo));
  XS_ASSIGN_OR_RETURN(Value * above, c.compare("gt", x, hi));
  XS_ASSIGN_OR_RETURN(Value * plus, c.binary(OpKind::Add, x, b));
  XS_ASSIGN_OR_RETURN(Value * minus, c.binary(OpKind::Sub, x, b));
  XS_ASSIGN_OR_RETURN(Value * upper, c.select(above, minus, zero));
  return c.select(below, plus, upper);
}

/// Relu takes integers too (opset 14).
absl::Status importRelu(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * y, relu(c, x));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importPRelu(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * slope, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * zero, scalar(c, 0.0, x));
  XS_ASSIGN_OR_RETURN(Value * negative, c.compare("lt", x, zero));
  XS_ASSIGN_OR_RETURN(Value * scaled, c.binary(OpKind::Mul, slope, x));
  XS_ASSIGN_OR_RETURN(Value * y, c.select(negative, scaled, x));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addActivationImporters(ImporterTable &table) {
  table["Relu"] = {importRelu, 6};
  table["LeakyRelu"] = {importFloatFormula<leakyRelu>, 6};
  table["Elu"] = {importFloatFormula<elu>, 6};
  table["Selu"] = {importFloatFormula<selu>, 6};
  table["Celu"] = {importFloatFormula<celu>, 12};
  table["ThresholdedRelu"] = {importFloatFormula<thresholdedRelu>, 10};
  table["HardSigmoid"] = {importFloatFormula<hardSigmoid>, 6};
  table["HardSwish"] = {importFloatFormula<hardSwish>, 14};
  table["Softplus"] = {importFloatFormula<softplus>, 1};
  table["Softsign"] = {importFloatFormula<softsign>, 1};
  table["Shrink"] = {importFloatFormula<shrink>, 9};
  table["PRelu"] = {importPRelu, 7};
}

} // namespace xs
