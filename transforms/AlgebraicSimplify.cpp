#include "transforms/AlgebraicSimplify.h"

#include <optional>

#include "ir/Builder.h"
#include "ir/ValueFacts.h"
#include "transforms/RewriteSweep.h"

namespace xs {

namespace {

// Exact comparison on purpose: a literal that only rounds to 1 in its element
// type is left alone, which is never wrong.
bool isSplat(const Value *v, double x) {
  std::optional<double> s = splatValue(*v);
  return s && *s == x;
}

bool sameShape(const Function &function, const TensorType &a, const TensorType &b) {
  if (a.elementType() != b.elementType() || a.rank() != b.rank())
    return false;
  for (int64_t i = 0; i < a.rank(); ++i)
    if (!function.constraints().provablyEqual(a.dim(i), b.dim(i)))
      return false;
  return true;
}

bool isIdentityPermutation(const std::vector<int64_t> &perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

bool isWholeSlice(const Function &function, const Operation &op) {
  const TensorType &input = op.operand(0)->type();
  const Attribute *start = op.attr("start");
  const Attribute *limit = op.attr("limit");
  if (!start || !limit)
    return false;
  const std::vector<DimExpr> &starts = start->getDimList();
  const std::vector<DimExpr> &limits = limit->getDimList();
  if (static_cast<int64_t>(starts.size()) != input.rank() ||
      static_cast<int64_t>(limits.size()) != input.rank())
    return false;
  if (const Attribute *step = op.attr("step"))
    for (int64_t s : step->getIntList())
      if (s != 1)
        return false;
  for (int64_t i = 0; i < input.rank(); ++i)
    if (starts[i] != DimExpr(0) || !function.constraints().provablyEqual(limits[i], input.dim(i)))
      return false;
  return true;
}

/// The value `op` can be replaced by, or nullptr when no identity applies.
/// May create ops (before `op`) for rewrites that are not a plain forward.
absl::StatusOr<Value *> simplify(Function &function, Operation &op) {
  auto operandIs = [&](size_t i, double x) { return isSplat(op.operand(i), x); };
  const bool isFloatResult = isFloat(op.type().elementType());
  switch (op.kind()) {
  case OpKind::Add:
    // For floats this keeps x = -0.0 where -0.0 + 0.0 gives +0.0; the two
    // compare equal, and the header lists x+0 as an identity.
    if (operandIs(1, 0))
      return op.operand(0);
    if (operandIs(0, 0))
      return op.operand(1);
    return nullptr;
  case OpKind::Sub:
    return operandIs(1, 0) ? op.operand(0) : nullptr;
  case OpKind::Mul:
    if (operandIs(1, 1))
      return op.operand(0);
    if (operandIs(0, 1))
      return op.operand(1);
    // Integers only: for floats, x*0 is NaN when x is NaN or inf, and -0 when x < 0.
    if (!isFloatResult) {
      if (operandIs(1, 0))
        return op.operand(1);
      if (operandIs(0, 0))
        return op.operand(0);
    }
    return nullptr;
  case OpKind::Div:
    return operandIs(1, 1) ? op.operand(0) : nullptr;
  case OpKind::Neg:
  case OpKind::Not: {
    const Operation *inner = op.operand(0)->definingOp();
    return inner && inner->kind() == op.kind() ? inner->operand(0) : nullptr;
  }
  case OpKind::Cast:
    return op.operand(0)->type().elementType() == op.type().elementType() ? op.operand(0) : nullptr;
  case OpKind::Select: {
    std::optional<double> condition = splatValue(*op.operand(0));
    if (!condition)
      return nullptr;
    return *condition != 0 ? op.operand(1) : op.operand(2);
  }
  case OpKind::Reshape:
    return sameShape(function, op.operand(0)->type(), op.type()) ? op.operand(0) : nullptr;
  case OpKind::Broadcast: {
    const Attribute *dims = op.attr("dims");
    if (!dims || !isIdentityPermutation(dims->getIntList()) ||
        static_cast<int64_t>(dims->getIntList().size()) != op.type().rank())
      return nullptr;
    return sameShape(function, op.operand(0)->type(), op.type()) ? op.operand(0) : nullptr;
  }
  case OpKind::Slice:
    return isWholeSlice(function, op) && sameShape(function, op.operand(0)->type(), op.type())
               ? op.operand(0)
               : nullptr;
  case OpKind::ReduceSum:
  case OpKind::ReduceProd:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin: {
    for (int64_t d : op.attr("dims")->getIntList())
      if (!function.constraints().provablyEqual(op.operand(0)->type().dim(d), DimExpr(1)))
        return nullptr;
    Builder builder(function, &op, op.loc());
    return builder.create(OpKind::Reshape, {op.operand(0)}, {}, op.type());
  }
  case OpKind::Transpose: {
    const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
    if (isIdentityPermutation(perm))
      return op.operand(0);
    Operation *inner = op.operand(0)->definingOp();
    if (!inner || inner->kind() != OpKind::Transpose)
      return nullptr;
    // Result dim i is inner's dim perm[i], which is its operand's dim innerPerm[perm[i]].
    const std::vector<int64_t> &innerPerm = inner->attr("perm")->getIntList();
    std::vector<int64_t> composed(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      composed[i] = innerPerm[static_cast<size_t>(perm[i])];
    if (isIdentityPermutation(composed))
      return inner->operand(0);
    Builder builder(function, &op, op.loc());
    return builder.create(OpKind::Transpose, {inner->operand(0)},
                          {{"perm", Attribute::intList(std::move(composed))}});
  }
  default:
    return nullptr;
  }
}

} // namespace

absl::StatusOr<bool> runAlgebraicSimplify(Function &function) {
  // A rewrite can expose another (neg(neg(neg(neg x)))), and a composed
  // transpose is created before the op being visited.
  return rewriteToFixpoint(function, simplify);
}

} // namespace xs
