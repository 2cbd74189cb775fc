#include "transforms/DCE.h"

#include "absl/container/flat_hash_set.h"

namespace xs {

namespace {

// Every op is pure, so an op is live exactly when a function result or a live
// op uses its result. One walk from the end finds all of them, including
// chains of dead ops that feed only each other.
absl::flat_hash_set<const Operation *> findLiveOps(const Function &function) {
  absl::flat_hash_set<const Value *> usedValues;
  for (const FunctionResult &r : function.results())
    usedValues.insert(r.value);
  absl::flat_hash_set<const Operation *> live;
  const auto &ops = function.ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const Operation &op = **it;
    if (!usedValues.contains(op.result()))
      continue;
    live.insert(&op);
    for (const Value *operand : op.operands())
      usedValues.insert(operand);
  }
  return live;
}

} // namespace

absl::StatusOr<bool> runDCE(Function &function) {
  absl::flat_hash_set<const Operation *> live = findLiveOps(function);
  if (live.size() == function.ops().size())
    return false;
  function.eraseOpsIf([&](const Operation &op) { return !live.contains(&op); });
  return true;
}

} // namespace xs
