#include "transforms/StrengthReduce.h"

#include <cmath>
#include <optional>

#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/ValueFacts.h"
#include "transforms/RewriteSweep.h"

namespace xs {

namespace {

/// What `op`'s operand raised to `exponent` becomes, created before `op`;
/// nullptr when the exponent has no cheaper form.
absl::StatusOr<Value *> expand(Function &function, Operation &op, double exponent) {
  Value *x = op.operand(0);
  Builder b(function, &op, op.loc());
  if (exponent == 1)
    return x;
  if (exponent == 0) {
    LiteralValue one;
    one.isInteger = false;
    one.floats = {1.0};
    return b.create(OpKind::Constant, {}, {{"value", Attribute::literal(one)}}, op.type());
  }
  if (exponent == 0.5)
    return b.create(OpKind::Sqrt, {x});
  if (exponent == -0.5)
    return b.create(OpKind::Rsqrt, {x});
  if (exponent == -1)
    return b.create(OpKind::Reciprocal, {x});
  if (exponent != 2 && exponent != 3 && exponent != 4 && exponent != -2)
    return nullptr;
  XS_ASSIGN_OR_RETURN(Value * square, b.create(OpKind::Mul, {x, x}));
  if (exponent == 2)
    return square;
  if (exponent == 3)
    return b.create(OpKind::Mul, {square, x});
  if (exponent == 4)
    return b.create(OpKind::Mul, {square, square});
  return b.create(OpKind::Reciprocal, {square});
}

/// Whether 1/c is exactly a number of type `type`: c a power of two, c and
/// 1/c normal numbers of the type. Then a / c and a * (1/c) are the same
/// real number and round alike (infinities and NaN included); normal,
/// because CPU kernels read subnormal operands as zero.
bool hasExactReciprocal(double c, ElementType type) {
  int exponent = 0;
  if (c == 0 || !std::isfinite(c) || std::abs(std::frexp(c, &exponent)) != 0.5)
    return false;
  // frexp gives c = +-0.5 * 2^exponent: c is 2^(exponent - 1), 1/c 2^(1 - exponent).
  int smallest = type == ElementType::F16 ? -14 : type == ElementType::F64 ? -1022 : -126;
  int largest = type == ElementType::F16 ? 15 : type == ElementType::F64 ? 1023 : 127;
  int power = exponent - 1;
  return isFloat(type) && power >= smallest && power <= largest && -power >= smallest &&
         -power <= largest;
}

/// The reciprocal square root of what `divisor` takes the square root of,
/// directly or through a broadcast (created before `op`); nullptr when
/// `divisor` is neither.
absl::StatusOr<Value *> reciprocalRoot(Function &function, Operation &op, Value &divisor) {
  Operation *def = divisor.definingOp();
  Operation *broadcast = nullptr;
  if (def != nullptr && def->kind() == OpKind::Broadcast) {
    broadcast = def;
    def = def->operand(0)->definingOp();
  }
  if (def == nullptr || def->kind() != OpKind::Sqrt)
    return nullptr;
  Builder b(function, &op, op.loc());
  XS_ASSIGN_OR_RETURN(Value * root, b.create(OpKind::Rsqrt, {def->operand(0)}));
  if (broadcast == nullptr)
    return root;
  return b.create(OpKind::Broadcast, {root}, broadcast->attrs(), broadcast->type());
}

/// The cheaper form of `op`, created before it; nullptr when it has none.
absl::StatusOr<Value *> reduce(Function &function, Operation &op) {
  switch (op.kind()) {
  case OpKind::Pow: {
    std::optional<double> exponent = splatValue(*op.operand(1));
    return exponent ? expand(function, op, *exponent) : nullptr;
  }
  case OpKind::Div: {
    XS_ASSIGN_OR_RETURN(Value * root, reciprocalRoot(function, op, *op.operand(1)));
    Builder b(function, &op, op.loc());
    if (root != nullptr)
      return b.create(OpKind::Mul, {op.operand(0), root});
    std::optional<double> divisor = splatValue(*op.operand(1));
    if (!divisor || !hasExactReciprocal(*divisor, op.type().elementType()))
      return nullptr;
    LiteralValue reciprocal;
    reciprocal.isInteger = false;
    reciprocal.floats = {1.0 / *divisor};
    XS_ASSIGN_OR_RETURN(Value * factor,
                        b.create(OpKind::Constant, {}, {{"value", Attribute::literal(reciprocal)}},
                                 op.operand(1)->type()));
    return b.create(OpKind::Mul, {op.operand(0), factor});
  }
  case OpKind::Reciprocal: {
    const Operation *def = op.operand(0)->definingOp();
    if (def == nullptr || def->kind() != OpKind::Sqrt)
      return nullptr;
    Builder b(function, &op, op.loc());
    return b.create(OpKind::Rsqrt, {def->operand(0)});
  }
  default:
    return nullptr;
  }
}

} // namespace

absl::StatusOr<bool> runStrengthReduce(Function &function) {
  return rewriteToFixpoint(function, [](Function &f, Operation &op) -> absl::StatusOr<Value *> {
    if (!isFloat(op.type().elementType()))
      return nullptr;
    return reduce(f, op);
  });
}

} // namespace xs
