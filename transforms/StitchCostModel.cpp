// The stitch planner's choice between plans (StitchPlanner.h): ops kept
// only to avoid recomputing them are first dominants; where that costs a
// round trip through global memory, the plan recomputing them is tried, and
// the one moving fewer bytes wins.

#include "transforms/AmplifiedChains.h"
#include "transforms/KernelStitcher.h"

namespace xs::plan {

namespace {

/// Whether some variant of `kernel` keeps `value` in its blocks' buffers.
bool inBlockBuffers(const StitchedKernel &kernel, const Value *value) {
  for (const KernelVariant &v : kernel.variants)
    for (const PlanBuffer &b : v.buffers)
      if (b.value == value && b.level == BufferLevel::Block)
        return true;
  return false;
}

/// Dominants that are neither results, reductions nor scans (kept only to save
/// recomputation) which the plan keeps in global scratch. A row gathered
/// along itself that some variant keeps in its blocks stays a dominant: the
/// variants where it goes through global memory are the price of the ones
/// where it does not, as a recomputed row read by gathers from memory costs
/// more than its round trip.
std::vector<const Value *> scratchedPromotions(const StitchedKernel &kernel, const Function &body) {
  std::vector<const Value *> promotions;
  for (const Value *value : kernel.scratch) {
    const Operation &op = *value->definingOp();
    if (!isReduction(op) && !isScan(op) && !isAmplifiedChain(op, body) &&
        !(isGatheredAlongRows(op, body) && inBlockBuffers(kernel, value)))
      promotions.push_back(value);
  }
  return promotions;
}

/// The cost model's figure for comparing plans: the catch-all variant's
/// estimated bytes with every symbol at kRepresentativeDim.
int64_t representativeBytes(const StitchedKernel &kernel) {
  return representativeValue(kernel.variants.back().estimatedBytes);
}

} // namespace

StitchedKernel planStitchedKernel(const Function &body, const TargetDescription &target) {
  // Costly chains read many times over (isAmplifiedChain) stay computed
  // once: a few vectors' round trip costs less than recomputing them for
  // every element read.
  absl::flat_hash_set<const Value *> recompute;
  StitchedKernel best = KernelStitcher(body, target, recompute).run();
  while (!best.variants.empty()) {
    std::vector<const Value *> candidates = scratchedPromotions(best, body);
    if (candidates.empty())
      break;
    absl::flat_hash_set<const Value *> wider = recompute;
    wider.insert(candidates.begin(), candidates.end());
    StitchedKernel other = KernelStitcher(body, target, wider).run();
    if (other.variants.empty() || representativeBytes(other) >= representativeBytes(best))
      break;
    best = std::move(other);
    recompute = std::move(wider);
  }
  return best;
}

} // namespace xs::plan
