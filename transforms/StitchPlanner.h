#ifndef XSTITCH_TRANSFORMS_STITCHPLANNER_H
#define XSTITCH_TRANSFORMS_STITCHPLANNER_H

// Plans one kernel that computes every op of a kernel body (a stitch scope):
// which ops are dominants (one group each), how groups share the thread
// mapping of the kernel's main dominant, and the scheme of every
// producer -> consumer edge between groups:
//   Local    the consumer recomputes the producer's ops (ops that are not
//            dominants are inlined into every group that reads them);
//   Regional the producer's block tile stays in a block buffer and the
//            consumer runs in a later stage of the same phase, when both use
//            the same rows per block and the consumer reads only rows its own
//            block produced (the block-locality check);
//   Global   the producer writes global memory (a result or scratch) and the
//            consumer runs in a later phase, after a grid barrier.
// Variants follow the main dominant's (the last row reduction, else the last
// dominant): each variant is planned with that variant's mapping.

#include <vector>

#include "ir/IR.h"
#include "transforms/KernelPlan.h"
#include "transforms/TargetDescription.h"

namespace xs::plan {

struct StitchedKernel {
  std::vector<KernelVariant> variants;
  /// Values some variant keeps in global scratch (KernelPlan::scratch).
  std::vector<const Value *> scratch;
  /// Partials of the column reductions some variant splits over row blocks
  /// (KernelPlan::partials).
  std::vector<PlanPartials> partials;
};

/// Plans `body`, whose results are the values the kernel writes. Every op of
/// the body is covered by some group (splat constants are inlined).
StitchedKernel planStitchedKernel(const Function &body, const TargetDescription &target);

} // namespace xs::plan

#endif // XSTITCH_TRANSFORMS_STITCHPLANNER_H
