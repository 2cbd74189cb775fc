#include "transforms/KernelPlanPass.h"

#include "transforms/PlanProgram.h"

namespace xs {

namespace {

absl::Status printPlans(const Function &function, const PassContext &context, bool fusion) {
  if (!context.out || !context.target)
    return absl::InternalError("kernel planning needs PassContext::out and PassContext::target");
  PlanOptions options;
  options.fusion = fusion;
  absl::StatusOr<ProgramPlan> plan = planProgram(function, *context.target, options);
  if (!plan.ok())
    return plan.status();
  for (const KernelPlan &kernel : plan->kernels)
    *context.out << printKernelPlan(kernel);
  *context.out << printHostPlan(plan->host);
  return absl::OkStatus();
}

} // namespace

absl::Status runKernelPlanPass(const Function &function, const PassContext &context) {
  return printPlans(function, context, /*fusion=*/false);
}

absl::Status runStitchPlanPass(const Function &function, const PassContext &context) {
  return printPlans(function, context, /*fusion=*/true);
}

} // namespace xs
