#include "transforms/ExpandPowers.h"

#include <optional>

#include "absl/container/flat_hash_set.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/ValueFacts.h"

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

} // namespace

absl::StatusOr<bool> runExpandPowers(Function &function) {
  std::vector<Operation *> powers;
  for (const auto &op : function.ops())
    if (op->kind() == OpKind::Pow && isFloat(op->type().elementType()))
      powers.push_back(op.get());
  absl::flat_hash_set<const Operation *> replaced;
  for (Operation *op : powers) {
    std::optional<double> exponent = splatValue(*op->operand(1));
    if (!exponent)
      continue;
    XS_ASSIGN_OR_RETURN(Value * replacement, expand(function, *op, *exponent));
    if (replacement == nullptr)
      continue;
    function.replaceAllUsesWith(op->result(), replacement);
    replaced.insert(op);
  }
  if (replaced.empty())
    return false;
  function.eraseOpsIf([&](const Operation &op) { return replaced.contains(&op); });
  return true;
}

} // namespace xs
