// Element-wise ops: unary, binary, compare, select, cast. Floats compute in
// f64 (evaluateOp rounds the result to its type unless asked not to);
// integers compute exactly and wrap to the result type's width.

#include <cassert>
#include <cmath>
#include <limits>

#include "ir/InterpreterInternal.h"
#include "ir/ScalarConversions.h"

namespace xs::interp {
namespace {

double roundHalfToEven(double x) {
  if (!std::isfinite(x))
    return x;
  double lower = std::floor(x);
  double fraction = x - lower;
  if (fraction < 0.5)
    return lower;
  if (fraction > 0.5)
    return lower + 1.0;
  return std::fmod(lower, 2.0) == 0.0 ? lower : lower + 1.0;
}

double unaryFloat(OpKind kind, double x) {
  switch (kind) {
  case OpKind::Neg:
    return -x;
  case OpKind::Abs:
    return std::fabs(x);
  case OpKind::Sign:
    if (std::isnan(x))
      return x;
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
  case OpKind::Exp:
    return std::exp(x);
  case OpKind::Log:
    return std::log(x);
  case OpKind::Log1p:
    return std::log1p(x);
  case OpKind::Sqrt:
    return std::sqrt(x);
  case OpKind::Rsqrt:
    return 1.0 / std::sqrt(x);
  case OpKind::Tanh:
    return std::tanh(x);
  case OpKind::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case OpKind::Erf:
    return std::erf(x);
  case OpKind::Sin:
    return std::sin(x);
  case OpKind::Cos:
    return std::cos(x);
  case OpKind::Reciprocal:
    return 1.0 / x;
  case OpKind::Floor:
    return std::floor(x);
  case OpKind::Ceil:
    return std::ceil(x);
  case OpKind::Round:
    return roundHalfToEven(x);
  case OpKind::IsNan:
    return std::isnan(x) ? 1.0 : 0.0;
  case OpKind::IsInf:
    return std::isinf(x) ? 1.0 : 0.0;
  default:
    break;
  }
  assert(false && "not a float unary op");
  return x;
}

/// Integer unary ops, computed modulo 2^64 and wrapped by the caller.
uint64_t unaryInteger(OpKind kind, ElementType type, int64_t x) {
  uint64_t u = static_cast<uint64_t>(x);
  switch (kind) {
  case OpKind::Neg:
    return 0 - u;
  case OpKind::Abs:
    return x < 0 ? 0 - u : u;
  case OpKind::Sign:
    return x > 0 ? 1 : (x < 0 ? static_cast<uint64_t>(-1) : 0);
  case OpKind::Not:
    return isBool(type) ? (x == 0 ? 1 : 0) : ~u;
  default:
    break;
  }
  assert(false && "not an integer unary op");
  return u;
}

absl::StatusOr<HostTensor> evaluateUnary(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  HostTensor result = ctx.makeResult();
  OpKind kind = ctx.op.kind();
  if (x.isFloat()) {
    if (kind == OpKind::Not)
      return ctx.error("operand is ", x.typeStr(), " but must be i1 or an integer");
    for (int64_t i = 0; i < x.numElements(); ++i) {
      double r = unaryFloat(kind, x.floats()[static_cast<size_t>(i)]);
      if (result.isFloat())
        result.floats()[static_cast<size_t>(i)] = r;
      else
        result.ints()[static_cast<size_t>(i)] = static_cast<int64_t>(r);
    }
    return result;
  }
  if (kind != OpKind::Neg && kind != OpKind::Abs && kind != OpKind::Sign && kind != OpKind::Not)
    return ctx.error("operand is ", x.typeStr(), " but must be a float type");
  for (int64_t i = 0; i < x.numElements(); ++i) {
    uint64_t r = unaryInteger(kind, x.elementType(), x.ints()[static_cast<size_t>(i)]);
    result.ints()[static_cast<size_t>(i)] =
        wrapToIntegerType(static_cast<int64_t>(r), result.elementType());
  }
  return result;
}

double binaryFloat(OpKind kind, double a, double b) {
  switch (kind) {
  case OpKind::Add:
    return a + b;
  case OpKind::Sub:
    return a - b;
  case OpKind::Mul:
    return a * b;
  case OpKind::Div:
    return a / b;
  case OpKind::Rem:
    return std::fmod(a, b);
  case OpKind::Pow:
    return std::pow(a, b);
  case OpKind::Max:
    return nanMax(a, b);
  case OpKind::Min:
    return nanMin(a, b);
  default:
    break;
  }
  assert(false && "not a float binary op");
  return a;
}

/// base^exponent modulo 2^64 by repeated squaring.
uint64_t powModulo(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  while (exponent) {
    if (exponent & 1)
      result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

/// Integer binary ops modulo 2^64 (the caller wraps to the width). Division
/// by zero, and 0 to a negative power, are reported through `divByZero`.
uint64_t binaryInteger(OpKind kind, int64_t a, int64_t b, bool &divByZero) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (kind) {
  case OpKind::Add:
    return ua + ub;
  case OpKind::Sub:
    return ua - ub;
  case OpKind::Mul:
    return ua * ub;
  case OpKind::Div:
  case OpKind::Rem:
    if (b == 0) {
      divByZero = true;
      return 0;
    }
    // INT64_MIN / -1 overflows int64; its wrapped quotient is INT64_MIN.
    if (b == -1)
      return kind == OpKind::Div ? 0 - ua : 0;
    return static_cast<uint64_t>(kind == OpKind::Div ? a / b : a % b);
  case OpKind::Pow:
    if (b >= 0)
      return powModulo(ua, ub);
    // A negative power is 1 / a^-b truncated toward zero.
    if (a == 0) {
      divByZero = true;
      return 0;
    }
    if (a == 1)
      return 1;
    if (a == -1)
      return (b & 1) ? static_cast<uint64_t>(-1) : 1;
    return 0;
  case OpKind::Max:
    return static_cast<uint64_t>(a > b ? a : b);
  case OpKind::Min:
    return static_cast<uint64_t>(a < b ? a : b);
  case OpKind::And:
    return ua & ub;
  case OpKind::Or:
    return ua | ub;
  case OpKind::Xor:
    return ua ^ ub;
  default:
    break;
  }
  assert(false && "not an integer binary op");
  return ua;
}

absl::StatusOr<HostTensor> evaluateBinary(const OpContext &ctx) {
  const HostTensor &a = ctx.operand(0);
  const HostTensor &b = ctx.operand(1);
  if (a.elementType() != b.elementType() || a.shape() != b.shape())
    return ctx.error("operands are ", a.typeStr(), " and ", b.typeStr(),
                     " but must have the same type");
  HostTensor result = ctx.makeResult();
  OpKind kind = ctx.op.kind();
  bool logical = kind == OpKind::And || kind == OpKind::Or || kind == OpKind::Xor;
  if (a.isFloat()) {
    if (logical)
      return ctx.error("operands are ", a.typeStr(), " but must be i1 or integers");
    for (int64_t i = 0; i < a.numElements(); ++i)
      result.floats()[static_cast<size_t>(i)] =
          binaryFloat(kind, a.floats()[static_cast<size_t>(i)], b.floats()[static_cast<size_t>(i)]);
    return result;
  }
  for (int64_t i = 0; i < a.numElements(); ++i) {
    int64_t x = a.ints()[static_cast<size_t>(i)], y = b.ints()[static_cast<size_t>(i)];
    bool divByZero = false;
    uint64_t r = binaryInteger(kind, x, y, divByZero);
    if (divByZero)
      return ctx.error("integer division by zero at element ", i, " (", x, " ", ctx.op.mnemonic(),
                       " ", y, ")");
    result.ints()[static_cast<size_t>(i)] =
        wrapToIntegerType(static_cast<int64_t>(r), result.elementType());
  }
  return result;
}

template <typename T> bool compareValues(std::string_view dir, T a, T b) {
  if (dir == "eq")
    return a == b;
  if (dir == "ne")
    return a != b;
  if (dir == "lt")
    return a < b;
  if (dir == "le")
    return a <= b;
  if (dir == "gt")
    return a > b;
  return a >= b;
}

absl::StatusOr<HostTensor> evaluateCompare(const OpContext &ctx) {
  const HostTensor &a = ctx.operand(0);
  const HostTensor &b = ctx.operand(1);
  if (a.elementType() != b.elementType() || a.shape() != b.shape())
    return ctx.error("operands are ", a.typeStr(), " and ", b.typeStr(),
                     " but must have the same type");
  std::string dir = ctx.op.enumAttrOr("dir", "");
  if (dir != "eq" && dir != "ne" && dir != "lt" && dir != "le" && dir != "gt" && dir != "ge")
    return ctx.error("'dir' is '", dir, "' but must be one of eq, ne, lt, le, gt, ge");
  HostTensor result = ctx.makeResult();
  for (int64_t i = 0; i < a.numElements(); ++i) {
    size_t k = static_cast<size_t>(i);
    bool r = a.isFloat() ? compareValues(dir, a.floats()[k], b.floats()[k])
                         : compareValues(dir, a.ints()[k], b.ints()[k]);
    result.ints()[k] = r ? 1 : 0;
  }
  return result;
}

absl::StatusOr<HostTensor> evaluateSelect(const OpContext &ctx) {
  const HostTensor &cond = ctx.operand(0);
  const HostTensor &a = ctx.operand(1);
  const HostTensor &b = ctx.operand(2);
  if (cond.elementType() != ElementType::I1 || cond.shape() != a.shape() ||
      a.elementType() != b.elementType() || a.shape() != b.shape())
    return ctx.error("operands are ", cond.typeStr(), ", ", a.typeStr(), " and ", b.typeStr(),
                     " but must be an i1 condition and two values of its shape and one type");
  HostTensor result = ctx.makeResult();
  for (int64_t i = 0; i < a.numElements(); ++i)
    copyElement(cond.ints()[static_cast<size_t>(i)] ? a : b, i, result, i);
  return result;
}

absl::StatusOr<HostTensor> evaluateCast(const OpContext &ctx) {
  const HostTensor &x = ctx.operand(0);
  HostTensor result = ctx.makeResult();
  ElementType to = result.elementType();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    size_t k = static_cast<size_t>(i);
    if (x.isFloat() && result.isFloat())
      result.floats()[k] = roundToFloatType(x.floats()[k], to);
    else if (x.isFloat())
      result.ints()[k] = convertDoubleToInteger(x.floats()[k], to);
    else if (result.isFloat())
      result.floats()[k] = convertIntegerToFloat(x.ints()[k], to);
    else
      result.ints()[k] = wrapToIntegerType(x.ints()[k], to);
  }
  return result;
}

} // namespace

absl::StatusOr<HostTensor> evaluateElementwise(const OpContext &ctx) {
  for (const HostTensor *operand : ctx.operands)
    if (operand->shape() != ctx.resultShape)
      return ctx.error("operand ", operand->typeStr(), " does not have the result's shape");
  switch (ctx.op.info().rule) {
  case TypeRule::UnaryNumeric:
  case TypeRule::UnaryFloat:
  case TypeRule::UnaryPredicate:
  case TypeRule::UnaryLogical:
    return evaluateUnary(ctx);
  case TypeRule::BinaryNumeric:
  case TypeRule::BinaryLogical:
    return evaluateBinary(ctx);
  case TypeRule::Compare:
    return evaluateCompare(ctx);
  case TypeRule::Select:
    return evaluateSelect(ctx);
  case TypeRule::Cast:
    return evaluateCast(ctx);
  default:
    break;
  }
  assert(false && "not an element-wise op");
  return ctx.error("not an element-wise op");
}

} // namespace xs::interp
