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

/// 1/c rounded to `type`, the factor that replaces a division by c: exact
/// when c is a power of two, so a / c and a * (1/c) round alike; otherwise
/// a * (1/c) is within an ulp of the rounded quotient (1.5 ulp of the exact
/// one), the rewrite XLA's algebraic simplifier makes too. None when c or
/// 1/c is not a normal number of the type (CPU kernels read subnormal
/// operands as zero).
std::optional<double> reciprocalFactor(double c, ElementType type) {
  if (c == 0 || !std::isfinite(c) || !isFloat(type))
    return std::nullopt;
  double smallest = type == ElementType::F16   ? 0x1p-14
                    : type == ElementType::F64 ? 0x1p-1022
                                               : 0x1p-126; // f32, bf16
  double reciprocal = roundToFloatType(1.0 / c, type);
  auto normal = [&](double v) { return std::isfinite(v) && std::abs(v) >= smallest; };
  if (!normal(c) || !normal(reciprocal))
    return std::nullopt;
  return reciprocal;
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
    // 1 / sqrt(b), PyTorch's export of torch.rsqrt, is the rsqrt itself.
    if (root != nullptr && splatValue(*op.operand(0)) == 1.0 && root->type() == op.type())
      return root;
    if (root != nullptr)
      return b.create(OpKind::Mul, {op.operand(0), root});
    std::optional<double> divisor = splatValue(*op.operand(1));
    std::optional<double> factor =
        divisor ? reciprocalFactor(*divisor, op.type().elementType()) : std::nullopt;
    if (!factor)
      return nullptr;
    LiteralValue reciprocal;
    reciprocal.isInteger = false;
    reciprocal.floats = {*factor};
    XS_ASSIGN_OR_RETURN(Value * scale,
                        b.create(OpKind::Constant, {}, {{"value", Attribute::literal(reciprocal)}},
                                 op.operand(1)->type()));
    return b.create(OpKind::Mul, {op.operand(0), scale});
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
