#include "transforms/CSE.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"

namespace xs {

namespace {

// Doubles are equal when they are the same value bit for bit: 0.0 and -0.0
// differ (1/x tells them apart), while every NaN is the same NaN.
bool sameDouble(double a, double b) {
  if (std::isnan(a) && std::isnan(b))
    return true;
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

constexpr int64_t kExactDoubleIntLimit = int64_t(1) << 53;

bool sameLiteralElement(const LiteralValue &a, const LiteralValue &b, int64_t i) {
  if (a.isInteger && b.isInteger)
    return a.asInt(i) == b.asInt(i);
  // `1` and `1.0` fill a tensor with the same value; compare them as doubles
  // only where the integer converts exactly.
  const LiteralValue &maybeInt = a.isInteger ? a : b;
  if (maybeInt.isInteger && std::abs(maybeInt.asInt(i)) > kExactDoubleIntLimit)
    return false;
  return sameDouble(a.asDouble(i), b.asDouble(i));
}

bool sameLiteral(const LiteralValue &a, const LiteralValue &b) {
  if (a.shape != b.shape || a.size() != b.size())
    return false;
  // Weights: compared by digest first, element by element only when equal.
  if (a.elements && b.elements && a.elements->elementType() == b.elements->elementType() &&
      a.elements->contentHash() != b.elements->contentHash())
    return false;
  for (int64_t i = 0; i < a.size(); ++i)
    if (!sameLiteralElement(a, b, i))
      return false;
  return true;
}

// Stricter than Attribute's operator==, which treats 0.0 and -0.0 as equal.
bool sameAttribute(const Attribute &a, const Attribute &b) {
  if (a.kind() != b.kind())
    return false;
  if (a.kind() == AttrKind::Literal)
    return sameLiteral(a.getLiteral(), b.getLiteral());
  if (a.kind() == AttrKind::Float)
    return sameDouble(a.getFloat(), b.getFloat());
  return a == b;
}

bool sameAttributes(const AttrDict &a, const AttrDict &b) {
  if (a.size() != b.size())
    return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
    if (ia->first != ib->first || !sameAttribute(ia->second, ib->second))
      return false;
  return true;
}

/// What makes two ops compute the same value. Operands of commutative ops are
/// sorted so that `add %a, %b` and `add %b, %a` meet.
struct OpKey {
  const Operation *op;
  std::vector<const Value *> operands;

  explicit OpKey(const Operation &o) : op(&o), operands(o.operands().begin(), o.operands().end()) {
    if (o.info().hasFlag(kCommutative))
      std::sort(operands.begin(), operands.end(), std::less<const Value *>());
  }

  template <typename H> friend H AbslHashValue(H h, const OpKey &k) {
    // Attributes are left to equality; ops that differ only in them are rare.
    return H::combine(std::move(h), k.op->kind(), k.operands, k.op->type().str());
  }

  friend bool operator==(const OpKey &a, const OpKey &b) {
    return a.op->kind() == b.op->kind() && a.operands == b.operands &&
           a.op->type() == b.op->type() && sameAttributes(a.op->attrs(), b.op->attrs());
  }
};

} // namespace

absl::StatusOr<bool> runCSE(Function &function) {
  // Uses are rewritten as the walk reaches them, so one walk in program order
  // also merges ops that become identical once their operands are merged.
  absl::flat_hash_map<Value *, Value *> replacement;
  absl::flat_hash_map<OpKey, Value *> available;
  absl::flat_hash_set<const Operation *> merged;
  for (const auto &op : function.ops()) {
    for (size_t i = 0; i < op->numOperands(); ++i)
      if (auto it = replacement.find(op->operand(i)); it != replacement.end())
        op->setOperand(i, it->second);
    auto [it, inserted] = available.try_emplace(OpKey(*op), op->result());
    if (!inserted) {
      replacement[op->result()] = it->second;
      merged.insert(op.get());
    }
  }
  if (merged.empty())
    return false;
  for (FunctionResult &r : function.results())
    if (auto it = replacement.find(r.value); it != replacement.end())
      r.value = it->second;
  function.eraseOpsIf([&](const Operation &op) { return merged.contains(&op); });
  return true;
}

} // namespace xs
