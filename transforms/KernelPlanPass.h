#ifndef XSTITCH_TRANSFORMS_KERNELPLANPASS_H
#define XSTITCH_TRANSFORMS_KERNELPLANPASS_H

// The `kernel-plan` and `stitch-plan` analyses: plan the function one op per
// kernel (PlanOptions::fusion = false) or stitched (fusion = true) for
// PassContext::target and print every KernelPlan, then the host plan, to
// PassContext::out. They change nothing.
//
// Precondition: every type known, composites decomposed (the planner's own
// preconditions; violations are errors naming the op).

#include "absl/status/status.h"
#include "ir/IR.h"
#include "transforms/Pass.h"

namespace xs {

absl::Status runKernelPlanPass(const Function &function, const PassContext &context);
absl::Status runStitchPlanPass(const Function &function, const PassContext &context);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_KERNELPLANPASS_H
