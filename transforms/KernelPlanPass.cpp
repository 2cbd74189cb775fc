#include "transforms/KernelPlanPass.h"

#include "transforms/PlanProgram.h"

namespace xs {

absl::Status runKernelPlanPass(const Function &function, const PassContext &context) {
  if (!context.out || !context.target)
    return absl::InternalError("kernel-plan needs PassContext::out and PassContext::target");
  PlanOptions options;
  options.fusion = false;
  absl::StatusOr<ProgramPlan> plan = planProgram(function, *context.target, options);
  if (!plan.ok())
    return plan.status();
  for (const KernelPlan &kernel : plan->kernels)
    *context.out << printKernelPlan(kernel);
  *context.out << printHostPlan(plan->host);
  return absl::OkStatus();
}

} // namespace xs
