#include "transforms/ConstantFold.h"

#include <bit>
#include <cmath>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "ir/Builder.h"
#include "ir/Interpreter.h"

namespace xs {

namespace {

// Bounds that keep folding from blowing up the IR (results are printed as
// dense literals) or the compile time (operands are materialized).
constexpr int64_t kMaxFoldedElements = 4096;
constexpr int64_t kMaxOperandElements = int64_t(1) << 20;

bool isConstant(const Value *v) {
  return v->definingOp() && v->definingOp()->kind() == OpKind::Constant;
}

std::optional<int64_t> staticElementCount(const TensorType &type) {
  std::optional<std::vector<int64_t>> shape = type.staticShape();
  if (!shape)
    return std::nullopt;
  int64_t count = 1;
  for (int64_t d : *shape) {
    if (d != 0 && count > kMaxOperandElements / d)
      return kMaxOperandElements + 1;
    count *= d;
  }
  return count;
}

/// Ops that only move elements, so a splat operand gives a splat result.
bool movesElements(const Operation &op) {
  switch (op.kind()) {
  case OpKind::Broadcast:
  case OpKind::Reshape:
  case OpKind::Transpose:
  case OpKind::Slice:
    return true;
  default:
    return false;
  }
}

bool sameDouble(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) ||
         std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y);
}

/// The literal of a constant whose elements all hold one value, as a scalar.
std::optional<LiteralValue> splatLiteral(const Value *v) {
  const LiteralValue &literal = v->definingOp()->attr("value")->getLiteral();
  if (literal.size() == 0)
    return std::nullopt;
  LiteralValue scalar;
  scalar.isInteger = literal.isInteger;
  for (int64_t i = 1; i < literal.size(); ++i) {
    bool same = literal.isInteger ? literal.asInt(i) == literal.asInt(0)
                                  : sameDouble(literal.asDouble(i), literal.asDouble(0));
    if (!same)
      return std::nullopt;
  }
  if (literal.isInteger)
    scalar.ints = {literal.asInt(0)};
  else
    scalar.floats = {literal.asDouble(0)};
  return scalar;
}

/// The literal that reproduces `t`: a scalar when every element is the same
/// (also for an empty tensor, where any scalar fills nothing), else dense.
/// Float elements are rounded to the element type first, as the interpreter
/// does when it reads a constant, so the literal prints no excess digits.
LiteralValue toLiteral(const HostTensor &t) {
  LiteralValue literal;
  literal.isInteger = !t.isFloat();
  if (literal.isInteger) {
    literal.ints = t.ints();
  } else {
    literal.floats.reserve(t.floats().size());
    for (double v : t.floats())
      literal.floats.push_back(roundToFloatType(v, t.elementType()));
  }
  bool splat = true;
  for (int64_t i = 1; i < literal.size() && splat; ++i)
    splat = literal.isInteger ? literal.ints[i] == literal.ints[0]
                              : sameDouble(literal.floats[i], literal.floats[0]);
  if (!splat) {
    literal.shape = t.shape();
    return literal;
  }
  if (literal.isInteger)
    literal.ints.resize(1, 0);
  else
    literal.floats.resize(1, 0.0);
  return literal;
}

/// Evaluates an op whose result and constant operands all have static shapes.
std::optional<LiteralValue> foldStatic(const Operation &op) {
  std::optional<int64_t> resultCount = staticElementCount(op.type());
  if (!resultCount || *resultCount > kMaxFoldedElements)
    return std::nullopt;
  std::vector<HostTensor> values;
  values.reserve(op.numOperands());
  for (const Value *operand : op.operands()) {
    std::optional<int64_t> count = staticElementCount(operand->type());
    if (!count || *count > kMaxOperandElements)
      return std::nullopt;
    // The constant's own evaluation gives its elements exactly as the
    // interpreter would see them (rounded or wrapped to the element type).
    absl::StatusOr<HostTensor> value = evaluateOp(*operand->definingOp(), {}, {});
    if (!value.ok())
      return std::nullopt;
    values.push_back(*std::move(value));
  }
  std::vector<const HostTensor *> pointers;
  for (const HostTensor &v : values)
    pointers.push_back(&v);
  // A failure (an integer division by zero, an index out of range) is left
  // for run time, where the interpreter or the kernel reports it.
  absl::StatusOr<HostTensor> result = evaluateOp(op, pointers, {});
  if (!result.ok())
    return std::nullopt;
  return toLiteral(*result);
}

/// Evaluates an element-wise op on splat operands of any (symbolic) shape by
/// evaluating a rank-0 copy of it in a scratch function.
std::optional<LiteralValue> foldSplatElementwise(const Operation &op) {
  Function scratch("constant_fold_scratch", op.loc());
  std::vector<Value *> scalars;
  for (const Value *operand : op.operands()) {
    std::optional<LiteralValue> literal = splatLiteral(operand);
    if (!literal)
      return std::nullopt;
    scalars.push_back(scratch
                          .createOp(OpKind::Constant, {}, {{"value", Attribute::literal(*literal)}},
                                    TensorType(operand->type().elementType(), {}), op.loc())
                          ->result());
  }
  std::vector<HostTensor> values;
  for (Value *scalar : scalars) {
    absl::StatusOr<HostTensor> value = evaluateOp(*scalar->definingOp(), {}, {});
    if (!value.ok())
      return std::nullopt;
    values.push_back(*std::move(value));
  }
  std::vector<const HostTensor *> pointers;
  for (const HostTensor &v : values)
    pointers.push_back(&v);
  const Operation *scalarOp = scratch.createOp(op.kind(), scalars, op.attrs(),
                                               TensorType(op.type().elementType(), {}), op.loc());
  absl::StatusOr<HostTensor> result = evaluateOp(*scalarOp, pointers, {});
  if (!result.ok())
    return std::nullopt;
  return toLiteral(*result);
}

/// A transpose of weights (dense elements, as initializers import) of any
/// size: the permuted copy, at the weights' width. Exporters transpose
/// weights into the layout an op reads (ONNX Gemm's transB), and folding it
/// here moves them once at compile time instead of once per call.
std::optional<LiteralValue> foldDenseTranspose(const Operation &op) {
  if (op.kind() != OpKind::Transpose)
    return std::nullopt;
  const LiteralValue &literal = op.operand(0)->definingOp()->attr("value")->getLiteral();
  std::optional<std::vector<int64_t>> shape = op.operand(0)->type().staticShape();
  std::optional<std::vector<int64_t>> result = op.type().staticShape();
  if (!literal.elements || !shape || !result || literal.shape != *shape)
    return std::nullopt;
  return LiteralValue::dense(*result,
                             literal.elements->transposed(*shape, op.attr("perm")->getIntList()));
}

std::optional<LiteralValue> fold(const Operation &op) {
  if (op.info().category == OpCategory::Source || op.numOperands() == 0)
    return std::nullopt;
  for (const Value *operand : op.operands())
    if (!isConstant(operand))
      return std::nullopt;
  if (std::optional<LiteralValue> literal = foldDenseTranspose(op))
    return literal;
  if (std::optional<LiteralValue> literal = foldStatic(op))
    return literal;
  if (op.info().isElementwise())
    return foldSplatElementwise(op);
  if (movesElements(op))
    return splatLiteral(op.operand(0));
  return std::nullopt;
}

} // namespace

absl::StatusOr<bool> runConstantFold(Function &function) {
  std::vector<Operation *> worklist;
  for (const auto &op : function.ops())
    worklist.push_back(op.get());
  // Program order: a folded op's users see the new constant when their turn comes.
  absl::flat_hash_set<const Operation *> folded;
  for (Operation *op : worklist) {
    std::optional<LiteralValue> literal = fold(*op);
    if (!literal)
      continue;
    Builder builder(function, op, op->loc());
    absl::StatusOr<Value *> constant = builder.create(
        OpKind::Constant, {}, {{"value", Attribute::literal(*std::move(literal))}}, op->type());
    if (!constant.ok())
      return constant.status();
    function.replaceAllUsesWith(op->result(), *constant);
    folded.insert(op);
  }
  if (folded.empty())
    return false;
  function.eraseOpsIf([&](const Operation &op) { return folded.contains(&op); });
  return true;
}

} // namespace xs
