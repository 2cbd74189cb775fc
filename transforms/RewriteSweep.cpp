#include "transforms/RewriteSweep.h"

#include <vector>

#include "absl/container/flat_hash_set.h"

namespace xs {

absl::StatusOr<bool> rewriteToFixpoint(Function &function, const OpRewrite &rewrite) {
  bool changed = false;
  while (true) {
    std::vector<Operation *> worklist;
    for (const auto &op : function.ops())
      worklist.push_back(op.get());
    absl::flat_hash_set<const Operation *> replaced;
    for (Operation *op : worklist) {
      absl::StatusOr<Value *> replacement = rewrite(function, *op);
      if (!replacement.ok())
        return replacement.status();
      if (*replacement == nullptr)
        continue;
      function.replaceAllUsesWith(op->result(), *replacement);
      replaced.insert(op);
    }
    if (replaced.empty())
      return changed;
    changed = true;
    function.eraseOpsIf([&](const Operation &op) { return replaced.contains(&op); });
  }
}

} // namespace xs
