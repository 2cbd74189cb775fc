#include "ir/ValueFacts.h"

#include <algorithm>
#include <vector>

namespace xs {

bool isAtMostItsMaximum(const Value &value) {
  const Operation *sub = value.definingOp();
  if (!sub || sub->kind() != OpKind::Sub)
    return false;
  const Value *a = sub->operand(0);
  const Operation *broadcast = sub->operand(1)->definingOp();
  if (!broadcast || broadcast->kind() != OpKind::Broadcast ||
      broadcast->type().shape() != a->type().shape())
    return false;
  const Operation *max = broadcast->operand(0)->definingOp();
  if (!max || max->kind() != OpKind::ReduceMax || max->operand(0) != a)
    return false;
  const Attribute *reduced = max->attr("dims");
  const Attribute *placed = broadcast->attr("dims");
  if (!reduced || !placed)
    return false;
  // The maximum's dims (the kept ones, in order) go back where they were.
  std::vector<int64_t> kept;
  const std::vector<int64_t> &dims = reduced->getIntList();
  for (int64_t d = 0; d < a->type().rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      kept.push_back(d);
  return placed->getIntList() == kept;
}

} // namespace xs
