#include "ir/ValueFacts.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace xs {

namespace {

/// `op` broadcasts `source` (a value of `reduction`'s result shape) back
/// over `reduction`'s operand's elements: each kept dim of the reduction goes
/// back where it was.
bool broadcastsBackFrom(const Operation &op, const Value *source, const Operation &reduction) {
  if (op.kind() != OpKind::Broadcast || op.operand(0) != source ||
      op.type().shape() != reduction.operand(0)->type().shape())
    return false;
  const Attribute *reduced = reduction.attr("dims");
  const Attribute *placed = op.attr("dims");
  if (!reduced || !placed)
    return false;
  std::vector<int64_t> kept;
  const std::vector<int64_t> &dims = reduced->getIntList();
  for (int64_t d = 0; d < reduction.operand(0)->type().rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      kept.push_back(d);
  return placed->getIntList() == kept;
}

/// The same for the reduction's own result.
bool broadcastsBack(const Operation &op, const Operation &reduction) {
  return broadcastsBackFrom(op, reduction.result(), reduction);
}

} // namespace

std::optional<double> splatValue(const Value &value) {
  const Operation *def = value.definingOp();
  if (!def || def->kind() != OpKind::Constant)
    return std::nullopt;
  const Attribute *attr = def->attr("value");
  if (!attr || attr->kind() != AttrKind::Literal)
    return std::nullopt;
  const LiteralValue &literal = attr->getLiteral();
  if (literal.size() == 0)
    return std::nullopt;
  double first = literal.asDouble(0);
  for (int64_t i = 1; i < literal.size(); ++i)
    if (literal.asDouble(i) != first)
      return std::nullopt;
  return first;
}

bool isScalarConstant(const Operation &op) {
  return op.kind() == OpKind::Constant && op.attr("value") &&
         op.attr("value")->getLiteral().shape.empty();
}

bool isAtMostItsMaximum(const Value &value) {
  const Operation *sub = value.definingOp();
  if (!sub || sub->kind() != OpKind::Sub)
    return false;
  // The subtrahend must be a broadcast (an operand-less op, an iota,
  // defines no maximum).
  const Operation *broadcast = sub->operand(1)->definingOp();
  if (!broadcast || broadcast->kind() != OpKind::Broadcast || broadcast->numOperands() != 1)
    return false;
  const Operation *max = broadcast->operand(0)->definingOp();
  return max && max->kind() == OpKind::ReduceMax && max->operand(0) == sub->operand(0) &&
         broadcastsBack(*broadcast, *max);
}

namespace {

/// Every op of `function` using each value, and whether it is a result.
struct Uses {
  absl::flat_hash_map<const Value *, std::vector<const Operation *>> users;
  absl::flat_hash_map<const Value *, bool> returned;
  explicit Uses(const Function &function) {
    for (const auto &op : function.ops())
      for (const Value *operand : op->operands())
        users[operand].push_back(op.get());
    for (const FunctionResult &result : function.results())
      returned[result.value] = true;
  }
  const std::vector<const Operation *> &of(const Value *value) const {
    static const std::vector<const Operation *> none;
    auto it = users.find(value);
    return it == users.end() ? none : it->second;
  }
  bool isResult(const Value *value) const { return returned.contains(value); }
};

/// Every use of exp `e` is its sum over `dims`, or the division of `e` by
/// that sum broadcast back, or its product with the sum's reciprocal
/// broadcast back; and at least one such normalization exists.
bool feedsOnlyItsNormalization(const Uses &uses, const Operation &e, const Attribute &dims) {
  if (uses.isResult(e.result()))
    return false;
  bool divided = false;
  for (const Operation *user : uses.of(e.result())) {
    if (user->kind() == OpKind::ReduceSum && user->operand(0) == e.result()) {
      const Attribute *summed = user->attr("dims");
      if (!summed || summed->getIntList() != dims.getIntList())
        return false;
      continue;
    }
    bool divides = user->kind() == OpKind::Div;
    if ((!divides && user->kind() != OpKind::Mul) || user->operand(0) != e.result() ||
        user->operand(1) == e.result())
      return false;
    const Operation *broadcast = user->operand(1)->definingOp();
    if (!broadcast || broadcast->kind() != OpKind::Broadcast || broadcast->numOperands() != 1)
      return false;
    const Operation *row = broadcast->operand(0)->definingOp();
    const Operation *sum = row;
    // e * broadcast(reciprocal(sum)): the reciprocal only scales its rows.
    if (!divides)
      sum = row && row->kind() == OpKind::Reciprocal ? row->operand(0)->definingOp() : nullptr;
    if (!sum || sum->kind() != OpKind::ReduceSum || sum->operand(0) != e.result() ||
        !sum->attr("dims") || sum->attr("dims")->getIntList() != dims.getIntList() ||
        !broadcastsBackFrom(*broadcast, row->result(), *sum))
      return false;
    divided = true;
  }
  return divided;
}

} // namespace

bool isSoftmaxMaximum(const Function &function, const Operation &max) {
  if (max.kind() != OpKind::ReduceMax || !isFloat(max.operand(0)->type().elementType()))
    return false;
  const Attribute *dims = max.attr("dims");
  Uses uses(function);
  if (!dims || uses.isResult(max.result()) || uses.of(max.result()).empty())
    return false;
  for (const Operation *broadcast : uses.of(max.result())) {
    if (!broadcastsBack(*broadcast, max) || uses.isResult(broadcast->result()) ||
        uses.of(broadcast->result()).empty())
      return false;
    for (const Operation *sub : uses.of(broadcast->result())) {
      if (!isAtMostItsMaximum(*sub->result()) || uses.isResult(sub->result()) ||
          uses.of(sub->result()).empty())
        return false;
      for (const Operation *e : uses.of(sub->result()))
        if (e->kind() != OpKind::Exp || !feedsOnlyItsNormalization(uses, *e, *dims))
          return false;
    }
  }
  return true;
}

std::optional<ElementType> roundedOnlyTo16Bits(const Function &function, const Value &value) {
  if (!isFloat(value.type().elementType()))
    return std::nullopt;
  Uses uses(function);
  // Forward from `value`: each value reached is exact up to a relative
  // error that the ops below at most add up (products, quotients,
  // reciprocals, broadcasts) or keep (sums of values of one sign).
  // `positive`: derived from `value` alone (its elements are exp's, > 0).
  absl::flat_hash_map<const Value *, bool> reached{{&value, true}};
  std::vector<const Value *> work{&value};
  bool toF16 = false, toBF16 = false;
  auto positiveOperands = [&](const Operation &op) {
    for (const Value *operand : op.operands())
      if (auto it = reached.find(operand); it == reached.end() || !it->second)
        return false;
    return true;
  };
  while (!work.empty()) {
    const Value *v = work.back();
    work.pop_back();
    if (uses.isResult(v))
      return std::nullopt;
    bool positive = reached.at(v);
    for (const Operation *user : uses.of(v)) {
      bool resultPositive = false;
      switch (user->kind()) {
      case OpKind::Cast: {
        const Attribute *target = user->attr("to");
        if (!target)
          return std::nullopt;
        ElementType to = target->getElementType();
        if (to == ElementType::F16)
          toF16 = true;
        else if (to == ElementType::BF16)
          toBF16 = true;
        else
          return std::nullopt;
        continue; // rounded: what follows sees a 16-bit value
      }
      case OpKind::ReduceSum:
        // A sum of values of mixed signs can cancel: its relative error is
        // not bounded by its terms'.
        if (!positive)
          return std::nullopt;
        resultPositive = true;
        break;
      case OpKind::Broadcast:
      case OpKind::Reciprocal:
        resultPositive = positive;
        break;
      case OpKind::Mul:
      case OpKind::Div:
        resultPositive = positiveOperands(*user);
        break;
      default:
        return std::nullopt;
      }
      auto [it, inserted] = reached.try_emplace(user->result(), resultPositive);
      if (!inserted && it->second && !resultPositive)
        it->second = false;
      else if (!inserted)
        continue;
      work.push_back(user->result());
    }
  }
  if (toF16)
    return ElementType::F16;
  if (toBF16)
    return ElementType::BF16;
  return std::nullopt;
}

namespace {

/// The bound an index fact is about: at least 0, or at most size - 1 for
/// every size of at least 1.
enum class IndexBound { AtLeastZero, BelowSize };

bool holds(const Value &value, IndexBound bound, const DimExpr &size);

/// The one integer every element of `value` holds: a literal of one value,
/// or a broadcast of one.
std::optional<int64_t> splatInteger(const Value &value) {
  const Operation *def = value.definingOp();
  while (def && def->kind() == OpKind::Broadcast)
    def = def->operand(0)->definingOp();
  if (!def || def->kind() != OpKind::Constant)
    return std::nullopt;
  const Attribute *attr = def->attr("value");
  if (!attr || attr->kind() != AttrKind::Literal || !attr->getLiteral().isInteger)
    return std::nullopt;
  const LiteralValue &literal = attr->getLiteral();
  if (literal.size() == 0)
    return std::nullopt;
  for (int64_t i = 1; i < literal.size(); ++i)
    if (literal.asInt(i) != literal.asInt(0))
      return std::nullopt;
  return literal.asInt(0);
}

/// i + k or i - k, i in [0, size) and k a constant within 2^31 (a resize's
/// neighbouring tap, clamped on one side only): shifting up keeps i at least
/// 0, shifting down keeps it below the size, and neither overflows.
bool holdsShifted(const Operation &op, IndexBound bound, const DimExpr &size) {
  constexpr int64_t kMaxShift = int64_t(1) << 31;
  for (int side = 0; side < 2; ++side) {
    if (op.kind() == OpKind::Sub && side == 0)
      continue; // k - i counts down
    std::optional<int64_t> k = splatInteger(*op.operand(side));
    if (!k || *k > kMaxShift || *k < -kMaxShift)
      continue;
    int64_t shift = op.kind() == OpKind::Sub ? -*k : *k;
    bool keeps = bound == IndexBound::AtLeastZero ? shift >= 0 : shift <= 0;
    const Value &index = *op.operand(1 - side);
    return keeps && holds(index, IndexBound::AtLeastZero, size) &&
           holds(index, IndexBound::BelowSize, size);
  }
  return false;
}

bool holds(const Value &value, IndexBound bound, const DimExpr &size) {
  const Operation *def = value.definingOp();
  if (!def || !isInteger(value.type().elementType()))
    return false;
  const DimExpr last = size - DimExpr(1);
  switch (def->kind()) {
  case OpKind::Add:
  case OpKind::Sub:
    return holdsShifted(*def, bound, size);
  case OpKind::Broadcast:
  case OpKind::Reshape:
  case OpKind::Transpose:
    return holds(*def->operand(0), bound, size);
  case OpKind::Min:
  case OpKind::Max: {
    // min(a, b) is below what either is below and at least what both are
    // at least; max the other way round.
    bool any = (def->kind() == OpKind::Min) == (bound == IndexBound::BelowSize);
    bool first = holds(*def->operand(0), bound, size);
    bool second = holds(*def->operand(1), bound, size);
    return any ? first || second : first && second;
  }
  case OpKind::DimValue: {
    // size - 1 itself: at least 0 for every size of at least 1.
    const std::vector<DimExpr> &dims = def->attr("dims")->getDimList();
    return dims.size() == 1 && dims[0] == last;
  }
  case OpKind::Iota: {
    DimExpr length = def->type().dim(def->intAttrOr("dim", 0));
    if (bound == IndexBound::AtLeastZero || length == size)
      return true;
    std::optional<int64_t> known = size.constantValue(), count = length.constantValue();
    return known && count && *count <= *known;
  }
  case OpKind::Constant: {
    const Attribute *attr = def->attr("value");
    if (!attr || attr->kind() != AttrKind::Literal)
      return false;
    const LiteralValue &literal = attr->getLiteral();
    std::optional<int64_t> known = size.constantValue();
    for (int64_t i = 0; i < literal.size(); ++i) {
      int64_t element = literal.asInt(i);
      bool fits = bound == IndexBound::AtLeastZero ? element >= 0
                                                   : element <= 0 || (known && element < *known);
      if (!fits)
        return false;
    }
    return true;
  }
  default:
    return false;
  }
}

} // namespace

bool isClampedIndex(const Value &indices, const DimExpr &size) {
  return holds(indices, IndexBound::AtLeastZero, size) &&
         holds(indices, IndexBound::BelowSize, size);
}

} // namespace xs
