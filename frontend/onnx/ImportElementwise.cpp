// Element-wise ONNX operators: math functions, arithmetic with numpy
// broadcasting, comparisons and logic, Where, Cast, Clip and the variadic
// Max, Min, Sum and Mean. Functions the IR lacks are composed from its
// primitives (docs/onnx.md gives each formula).

#include <cmath>
#include <initializer_list>
#include <numbers>
#include <optional>
#include <string_view>

#include "absl/strings/str_join.h"

#include "frontend/onnx/OnnxTensor.h"
#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"
#include "ir/ScalarConversions.h"

namespace xs {

namespace {

template <OpKind Kind> absl::Status importUnary(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * y, c.unary(Kind, x));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Whether input i is a vector of dims known at import with a symbolic
/// entry (not yet an IR value).
bool isSymbolicDims(ImportContext &c, int i) {
  const OnnxValue *v = c.onnxInput(i);
  return v && v->dims && !v->value;
}

/// Whether inputs i and j are both dims known at import, one of them
/// symbolic: shape arithmetic that can stay dims.
bool dimsOperands(ImportContext &c, int i, int j) {
  return (isSymbolicDims(c, i) || isSymbolicDims(c, j)) && c.inputIsDims(i) && c.inputIsDims(j);
}

/// Whether input i holds one dim (rank 0) rather than a vector of them.
bool isScalarDims(ImportContext &c, int i) {
  const OnnxValue *v = c.onnxInput(i);
  return !v->value ? v->scalarDims : v->value->type().rank() == 0;
}

/// The length two dims vectors broadcast to (one of length 1 repeats).
absl::StatusOr<size_t> broadcastLength(ImportContext &c, std::initializer_list<size_t> lengths) {
  size_t n = 1;
  for (size_t l : lengths)
    n = std::max(n, l);
  for (size_t l : lengths)
    if (l != n && l != 1)
      return c.error(
          strCat("dims vectors of lengths ", absl::StrJoin(lengths, " and "), " do not broadcast"));
  return n;
}

/// Add, Sub, Mul and Div (by constants) of vectors of dims known at import,
/// at least one of them symbolic: shape arithmetic stays dims. False when
/// the inputs are not such, or for a division by a symbolic dim, which is
/// then computed at run time.
absl::StatusOr<bool> dimsArithmetic(ImportContext &c, OpKind kind) {
  if (!dimsOperands(c, 0, 1))
    return false;
  if (kind != OpKind::Add && kind != OpKind::Sub && kind != OpKind::Mul && kind != OpKind::Div)
    return false;
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> x, c.dimsInput(0, "a dims operand"));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> y, c.dimsInput(1, "a dims operand"));
  XS_ASSIGN_OR_RETURN(size_t n, broadcastLength(c, {x.size(), y.size()}));
  std::vector<DimExpr> out;
  for (size_t i = 0; i < n; ++i) {
    const DimExpr &l = x[x.size() == 1 ? 0 : i], &r = y[y.size() == 1 ? 0 : i];
    if (kind == OpKind::Add)
      out.push_back(l + r);
    else if (kind == OpKind::Sub)
      out.push_back(l - r);
    else if (kind == OpKind::Mul)
      out.push_back(l * r);
    else if (std::optional<int64_t> k = r.constantValue(); k && *k > 0)
      out.push_back(DimExpr::floorDiv(l, *k));
    else
      return false; // by a symbolic dim: computed at run time (dim_value)
  }
  c.setOutputDims(0, out, isScalarDims(c, 0) && isScalarDims(c, 1));
  return true;
}

template <OpKind Kind> absl::Status importBinary(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(bool onDims, dimsArithmetic(c, Kind));
  if (onDims)
    return absl::OkStatus();
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(Kind, a, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Equal of vectors of dims known at import, one of them symbolic, where
/// every entry is decided at import: the same expression, two constants, or
/// a dim against a negative constant (a dim is never negative). Exporters
/// write `Where(Equal(shape, -1), 1, shape)` before an Expand of a shape
/// taken from a tensor: with the answer a constant, the Where keeps the
/// shape's dims and the Expand its symbols. False when some entry is open.
absl::StatusOr<bool> dimsEqual(ImportContext &c) {
  if (!dimsOperands(c, 0, 1))
    return false;
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> x, c.dimsInput(0, "a dims operand"));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> y, c.dimsInput(1, "a dims operand"));
  XS_ASSIGN_OR_RETURN(size_t n, broadcastLength(c, {x.size(), y.size()}));
  auto decide = [](const DimExpr &l, const DimExpr &r) -> std::optional<bool> {
    if (l == r)
      return true;
    std::optional<int64_t> lc = l.constantValue(), rc = r.constantValue();
    if (lc && rc)
      return *lc == *rc;
    if ((lc && *lc < 0) || (rc && *rc < 0))
      return false;
    return std::nullopt;
  };
  bool scalar = isScalarDims(c, 0) && isScalarDims(c, 1);
  HostTensor out(ElementType::I1,
                 scalar ? std::vector<int64_t>{} : std::vector<int64_t>{static_cast<int64_t>(n)});
  for (size_t i = 0; i < n; ++i) {
    std::optional<bool> equal = decide(x[x.size() == 1 ? 0 : i], y[y.size() == 1 ? 0 : i]);
    if (!equal)
      return false;
    out.setInt(static_cast<int64_t>(i), *equal ? 1 : 0);
  }
  XS_ASSIGN_OR_RETURN(Value * y0, c.constant(out));
  c.setOutput(0, y0);
  return true;
}

template <const char *Dir> absl::Status importCompare(ImportContext &c) {
  if (std::string_view(Dir) == "eq") {
    XS_ASSIGN_OR_RETURN(bool onDims, dimsEqual(c));
    if (onDims)
      return absl::OkStatus();
  }
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * y, c.compare(Dir, a, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}
constexpr char kEq[] = "eq", kLt[] = "lt", kLe[] = "le", kGt[] = "gt", kGe[] = "ge";

/// x op scalar constant.
absl::StatusOr<Value *> withScalar(ImportContext &c, OpKind kind, Value *x, double v) {
  XS_ASSIGN_OR_RETURN(Value * s, c.scalarLike(v, x));
  return c.binary(kind, x, s);
}

absl::StatusOr<Value *> scalarWith(ImportContext &c, OpKind kind, double v, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * s, c.scalarLike(v, x));
  return c.binary(kind, s, x);
}

/// atan by Cephes' range reduction (|x| > tan(3pi/8): pi/2 - atan(1/|x|);
/// |x| > tan(pi/8): pi/4 + atan((|x|-1)/(|x|+1))) and its degree-9 odd
/// polynomial, accurate to a few ulp of f32.
absl::StatusOr<Value *> atanOf(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * ax, c.unary(OpKind::Abs, x));
  XS_ASSIGN_OR_RETURN(Value * one, c.scalarLike(1.0, x));
  XS_ASSIGN_OR_RETURN(Value * tan3Eighths, c.scalarLike(2.414213562373095, x));
  XS_ASSIGN_OR_RETURN(Value * tanEighth, c.scalarLike(0.4142135623730950, x));
  XS_ASSIGN_OR_RETURN(Value * big, c.compare("gt", ax, tan3Eighths));
  XS_ASSIGN_OR_RETURN(Value * mid, c.compare("gt", ax, tanEighth));
  XS_ASSIGN_OR_RETURN(Value * invNeg, scalarWith(c, OpKind::Div, -1.0, ax));
  XS_ASSIGN_OR_RETURN(Value * num, c.binary(OpKind::Sub, ax, one));
  XS_ASSIGN_OR_RETURN(Value * den, c.binary(OpKind::Add, ax, one));
  XS_ASSIGN_OR_RETURN(Value * shifted, c.binary(OpKind::Div, num, den));
  XS_ASSIGN_OR_RETURN(Value * midOrSmall, c.select(mid, shifted, ax));
  XS_ASSIGN_OR_RETURN(Value * xr, c.select(big, invNeg, midOrSmall));
  XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0.0, x));
  XS_ASSIGN_OR_RETURN(Value * quarter, c.scalarLike(std::numbers::pi / 4, x));
  XS_ASSIGN_OR_RETURN(Value * half, c.scalarLike(std::numbers::pi / 2, x));
  XS_ASSIGN_OR_RETURN(Value * offsetMid, c.select(mid, quarter, zero));
  XS_ASSIGN_OR_RETURN(Value * offset, c.select(big, half, offsetMid));
  XS_ASSIGN_OR_RETURN(Value * z, c.binary(OpKind::Mul, xr, xr));
  XS_ASSIGN_OR_RETURN(Value * p, c.scalarLike(8.05374449538e-2, x));
  for (double coefficient : {-1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1}) {
    XS_ASSIGN_OR_RETURN(p, c.binary(OpKind::Mul, p, z));
    XS_ASSIGN_OR_RETURN(p, withScalar(c, OpKind::Add, p, coefficient));
  }
  XS_ASSIGN_OR_RETURN(p, c.binary(OpKind::Mul, p, z));
  XS_ASSIGN_OR_RETURN(p, c.binary(OpKind::Mul, p, xr));
  XS_ASSIGN_OR_RETURN(p, c.binary(OpKind::Add, p, xr));
  XS_ASSIGN_OR_RETURN(Value * magnitude, c.binary(OpKind::Add, offset, p));
  XS_ASSIGN_OR_RETURN(Value * sign, c.unary(OpKind::Sign, x));
  return c.binary(OpKind::Mul, sign, magnitude);
}

/// asin(x) = atan(x / sqrt((1 - x)(1 + x))).
absl::StatusOr<Value *> asinOf(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * oneMinus, scalarWith(c, OpKind::Sub, 1.0, x));
  XS_ASSIGN_OR_RETURN(Value * onePlus, withScalar(c, OpKind::Add, x, 1.0));
  XS_ASSIGN_OR_RETURN(Value * product, c.binary(OpKind::Mul, oneMinus, onePlus));
  XS_ASSIGN_OR_RETURN(Value * root, c.unary(OpKind::Sqrt, product));
  XS_ASSIGN_OR_RETURN(Value * ratio, c.binary(OpKind::Div, x, root));
  return atanOf(c, ratio);
}

absl::StatusOr<Value *> tanOf(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * s, c.unary(OpKind::Sin, x));
  XS_ASSIGN_OR_RETURN(Value * co, c.unary(OpKind::Cos, x));
  return c.binary(OpKind::Div, s, co);
}

absl::StatusOr<Value *> acosOf(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * a, asinOf(c, x));
  return scalarWith(c, OpKind::Sub, std::numbers::pi / 2, a);
}

/// (exp(x) + sign * exp(-x)) / 2: cosh (sign 1) and sinh (sign -1).
absl::StatusOr<Value *> expPair(ImportContext &c, Value *x, OpKind combine) {
  XS_ASSIGN_OR_RETURN(Value * e, c.unary(OpKind::Exp, x));
  XS_ASSIGN_OR_RETURN(Value * nx, c.unary(OpKind::Neg, x));
  XS_ASSIGN_OR_RETURN(Value * en, c.unary(OpKind::Exp, nx));
  XS_ASSIGN_OR_RETURN(Value * sum, c.binary(combine, e, en));
  return withScalar(c, OpKind::Mul, sum, 0.5);
}
absl::StatusOr<Value *> sinhOf(ImportContext &c, Value *x) { return expPair(c, x, OpKind::Sub); }
absl::StatusOr<Value *> coshOf(ImportContext &c, Value *x) { return expPair(c, x, OpKind::Add); }

/// log(x + sqrt(x*x + shift)): asinh (shift 1) and acosh (shift -1).
absl::StatusOr<Value *> logRoot(ImportContext &c, Value *x, double shift) {
  XS_ASSIGN_OR_RETURN(Value * sq, c.binary(OpKind::Mul, x, x));
  XS_ASSIGN_OR_RETURN(Value * shifted, withScalar(c, OpKind::Add, sq, shift));
  XS_ASSIGN_OR_RETURN(Value * root, c.unary(OpKind::Sqrt, shifted));
  XS_ASSIGN_OR_RETURN(Value * sum, c.binary(OpKind::Add, x, root));
  return c.unary(OpKind::Log, sum);
}
absl::StatusOr<Value *> asinhOf(ImportContext &c, Value *x) { return logRoot(c, x, 1.0); }
absl::StatusOr<Value *> acoshOf(ImportContext &c, Value *x) { return logRoot(c, x, -1.0); }

/// atanh(x) = log((1 + x) / (1 - x)) / 2.
absl::StatusOr<Value *> atanhOf(ImportContext &c, Value *x) {
  XS_ASSIGN_OR_RETURN(Value * num, withScalar(c, OpKind::Add, x, 1.0));
  XS_ASSIGN_OR_RETURN(Value * den, scalarWith(c, OpKind::Sub, 1.0, x));
  XS_ASSIGN_OR_RETURN(Value * ratio, c.binary(OpKind::Div, num, den));
  XS_ASSIGN_OR_RETURN(Value * l, c.unary(OpKind::Log, ratio));
  return withScalar(c, OpKind::Mul, l, 0.5);
}

absl::Status importIsInf(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * inf, c.unary(OpKind::IsInf, x));
  bool negative = c.intAttr("detect_negative", 1) != 0;
  bool positive = c.intAttr("detect_positive", 1) != 0;
  if (!negative || !positive) {
    XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0.0, x));
    XS_ASSIGN_OR_RETURN(Value * side, c.compare(positive ? "gt" : "lt", x, zero));
    if (!negative && !positive) {
      XS_ASSIGN_OR_RETURN(Value * no, c.splat(0, inf->type()));
      c.setOutput(0, no);
      return absl::OkStatus();
    }
    XS_ASSIGN_OR_RETURN(inf, c.binary(OpKind::And, inf, side));
  }
  c.setOutput(0, inf);
  return absl::OkStatus();
}

/// Pow's exponent may have another type than its base; the result has the
/// base's.
absl::Status importPow(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  XS_ASSIGN_OR_RETURN(b, c.cast(b, a->type().elementType()));
  XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Pow, a, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// fmod = 1: C's fmod (the dividend's sign); fmod = 0 (integers only): the
/// divisor's sign, as Python's %.
absl::Status importMod(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * a, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(1));
  bool fmod = c.intAttr("fmod", 0) != 0;
  if (!fmod && isFloat(a->type().elementType()))
    return c.error("Mod of floats needs fmod = 1");
  XS_ASSIGN_OR_RETURN(Value * r, c.binary(OpKind::Rem, a, b));
  if (!fmod) {
    XS_ASSIGN_OR_RETURN(Value * zero, c.scalarLike(0, r));
    XS_ASSIGN_OR_RETURN(Value * nonzero, c.compare("ne", r, zero));
    XS_ASSIGN_OR_RETURN(Value * rNeg, c.compare("lt", r, zero));
    XS_ASSIGN_OR_RETURN(Value * bNeg, c.compare("lt", b, zero));
    XS_ASSIGN_OR_RETURN(Value * differ, c.binary(OpKind::Xor, rNeg, bNeg));
    XS_ASSIGN_OR_RETURN(Value * fix, c.binary(OpKind::And, nonzero, differ));
    XS_ASSIGN_OR_RETURN(Value * shifted, c.binary(OpKind::Add, r, b));
    XS_ASSIGN_OR_RETURN(r, c.select(fix, shifted, r));
  }
  c.setOutput(0, r);
  return absl::OkStatus();
}

/// Where between vectors of dims known at import, one of them symbolic, on
/// a condition known at import (dimsEqual's): the picked dims, so shapes
/// stay symbolic instead of becoming host symbols. False otherwise.
absl::StatusOr<bool> dimsWhere(ImportContext &c) {
  const OnnxValue *condition = c.onnxInput(0);
  const HostTensor *known =
      condition && condition->value ? c.knownValue(condition->value) : nullptr;
  if (!known || known->rank() > 1 || !dimsOperands(c, 1, 2))
    return false;
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> x, c.dimsInput(1, "a dims operand"));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> y, c.dimsInput(2, "a dims operand"));
  size_t k = static_cast<size_t>(known->numElements());
  XS_ASSIGN_OR_RETURN(size_t n, broadcastLength(c, {k, x.size(), y.size()}));
  std::vector<DimExpr> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(known->getInt(static_cast<int64_t>(k == 1 ? 0 : i)) != 0
                      ? x[x.size() == 1 ? 0 : i]
                      : y[y.size() == 1 ? 0 : i]);
  c.setOutputDims(0, out, known->rank() == 0 && isScalarDims(c, 1) && isScalarDims(c, 2));
  return true;
}

absl::Status importWhere(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(bool onDims, dimsWhere(c));
  if (onDims)
    return absl::OkStatus();
  XS_ASSIGN_OR_RETURN(Value * cond, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * a, c.input(1));
  XS_ASSIGN_OR_RETURN(Value * b, c.input(2));
  XS_ASSIGN_OR_RETURN(Value * y, c.select(cond, a, b));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importCast(ImportContext &c) {
  const onnx::AttributeProto *to = c.attr("to");
  if (!to)
    return c.error("needs the attribute 'to'");
  absl::StatusOr<ElementType> type = elementTypeFromOnnx(static_cast<int32_t>(to->i()));
  if (!type.ok())
    return c.unsupported(strCat("cast to ", type.status().message()));
  if (c.inputIsDims(0) && !isFloat(*type) && *type != ElementType::I1) {
    // Shape arithmetic keeps its symbolic dims through integer casts.
    if (const OnnxValue *v = c.onnxInput(0); v && v->dims) {
      c.setOutputDims(0, *v->dims, v->scalarDims);
      return absl::OkStatus();
    }
  }
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(Value * y, c.cast(x, *type));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importCastLike(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  XS_ASSIGN_OR_RETURN(TensorType like, c.inputType(1));
  XS_ASSIGN_OR_RETURN(Value * y, c.cast(x, like.elementType()));
  c.setOutput(0, y);
  return absl::OkStatus();
}

absl::Status importIdentity(ImportContext &c) {
  const OnnxValue *v = c.onnxInput(0);
  if (v && v->dims) {
    c.setOutputDims(0, *v->dims, v->scalarDims);
    return absl::OkStatus();
  }
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  c.setOutput(0, x);
  return absl::OkStatus();
}

/// Inference-mode dropout: the input, and a mask of ones.
absl::Status importDropout(ImportContext &c) {
  bool training = false;
  if (c.opset() >= 12 && c.hasInput(2)) {
    XS_ASSIGN_OR_RETURN(std::vector<int64_t> mode, c.constantInts(2, "training_mode"));
    training = !mode.empty() && mode[0] != 0;
  }
  if (training || (c.opset() < 7 && c.intAttr("is_test", 0) == 0))
    return c.unsupported("training-mode dropout (random masks) is not supported");
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  c.setOutput(0, x);
  if (c.hasOutput(1)) {
    XS_ASSIGN_OR_RETURN(Value * mask, c.splat(1, x->type().withElementType(ElementType::I1)));
    c.setOutput(1, mask);
  }
  return absl::OkStatus();
}

/// Clip: bounds from attributes (before opset 11) or optional inputs.
absl::Status importClip(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(Value * x, c.input(0));
  Value *lo = nullptr, *hi = nullptr;
  if (c.opset() < 11) {
    if (c.hasAttr("min")) {
      XS_ASSIGN_OR_RETURN(lo, c.scalarLike(c.floatAttr("min", 0), x));
    }
    if (c.hasAttr("max")) {
      XS_ASSIGN_OR_RETURN(hi, c.scalarLike(c.floatAttr("max", 0), x));
    }
  } else {
    XS_ASSIGN_OR_RETURN(lo, c.optionalInput(1));
    XS_ASSIGN_OR_RETURN(hi, c.optionalInput(2));
  }
  Value *y = x;
  if (lo) {
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Max, y, lo));
  }
  if (hi) {
    XS_ASSIGN_OR_RETURN(y, c.binary(OpKind::Min, y, hi));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

/// Max, Min, Sum, Mean over any number of broadcast inputs.
template <OpKind Kind, bool Mean> absl::Status importVariadic(ImportContext &c) {
  if (c.numInputs() < 1)
    return c.error("needs at least one input");
  XS_ASSIGN_OR_RETURN(Value * y, c.input(0));
  for (int i = 1; i < c.numInputs(); ++i) {
    XS_ASSIGN_OR_RETURN(Value * x, c.input(i));
    XS_ASSIGN_OR_RETURN(y, c.binary(Kind, y, x));
  }
  if (Mean) {
    XS_ASSIGN_OR_RETURN(y, withScalar(c, OpKind::Div, y, static_cast<double>(c.numInputs())));
  }
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addElementwiseImporters(ImporterTable &table) {
  table["Abs"] = {importUnary<OpKind::Abs>, 6};
  table["Neg"] = {importUnary<OpKind::Neg>, 6};
  table["Sign"] = {importUnary<OpKind::Sign>, 9};
  table["Exp"] = {importUnary<OpKind::Exp>, 6};
  table["Log"] = {importUnary<OpKind::Log>, 6};
  table["Sqrt"] = {importUnary<OpKind::Sqrt>, 6};
  table["Tanh"] = {importUnary<OpKind::Tanh>, 6};
  table["Sigmoid"] = {importUnary<OpKind::Sigmoid>, 6};
  table["Erf"] = {importUnary<OpKind::Erf>, 9};
  table["Sin"] = {importUnary<OpKind::Sin>, 7};
  table["Cos"] = {importUnary<OpKind::Cos>, 7};
  table["Reciprocal"] = {importUnary<OpKind::Reciprocal>, 6};
  table["Floor"] = {importUnary<OpKind::Floor>, 6};
  table["Ceil"] = {importUnary<OpKind::Ceil>, 6};
  table["Round"] = {importUnary<OpKind::Round>, 11};
  table["IsNaN"] = {importUnary<OpKind::IsNan>, 9};
  table["Not"] = {importUnary<OpKind::Not>, 1};
  table["IsInf"] = {importIsInf, 10};
  table["Tan"] = {importFloatFormula<tanOf>, 7};
  table["Asin"] = {importFloatFormula<asinOf>, 7};
  table["Acos"] = {importFloatFormula<acosOf>, 7};
  table["Atan"] = {importFloatFormula<atanOf>, 7};
  table["Sinh"] = {importFloatFormula<sinhOf>, 9};
  table["Cosh"] = {importFloatFormula<coshOf>, 9};
  table["Asinh"] = {importFloatFormula<asinhOf>, 9};
  table["Acosh"] = {importFloatFormula<acoshOf>, 9};
  table["Atanh"] = {importFloatFormula<atanhOf>, 9};

  table["Add"] = {importBinary<OpKind::Add>, 7};
  table["Sub"] = {importBinary<OpKind::Sub>, 7};
  table["Mul"] = {importBinary<OpKind::Mul>, 7};
  table["Div"] = {importBinary<OpKind::Div>, 7};
  table["Pow"] = {importPow, 7};
  table["Mod"] = {importMod, 10};
  table["And"] = {importBinary<OpKind::And>, 7};
  table["Or"] = {importBinary<OpKind::Or>, 7};
  table["Xor"] = {importBinary<OpKind::Xor>, 7};
  table["Equal"] = {importCompare<kEq>, 7};
  table["Less"] = {importCompare<kLt>, 7};
  table["LessOrEqual"] = {importCompare<kLe>, 12};
  table["Greater"] = {importCompare<kGt>, 7};
  table["GreaterOrEqual"] = {importCompare<kGe>, 12};
  table["Where"] = {importWhere, 9};
  table["Max"] = {importVariadic<OpKind::Max, false>, 6};
  table["Min"] = {importVariadic<OpKind::Min, false>, 6};
  table["Sum"] = {importVariadic<OpKind::Add, false>, 6};
  table["Mean"] = {importVariadic<OpKind::Add, true>, 6};
  table["Clip"] = {importClip, 6};
  table["Cast"] = {importCast, 6};
  table["CastLike"] = {importCastLike, 15};
  table["Identity"] = {importIdentity, 1};
  table["Dropout"] = {importDropout, 7};
}

} // namespace xs
