#ifndef XSTITCH_TRANSFORMS_PLANPROGRAM_H
#define XSTITCH_TRANSFORMS_PLANPROGRAM_H

// Partitions a canonicalized function into kernels and library calls and
// builds the host plan that runs them.
//
// Precondition: the function verifies with every type known, and has been
// decomposed (no composite ops). Postcondition: every op of the function is
// covered by exactly one kernel, a library step or an alias; splat constants
// are copied into the kernels that use them; dense constants become constant
// buffers; contiguous reshapes become aliases.

#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "ir/IR.h"
#include "transforms/KernelPlan.h"
#include "transforms/TargetDescription.h"

namespace xs {

struct PlanOptions {
  /// false: one kernel per memory-intensive op (the unfused baseline).
  /// true: every run of memory-intensive ops between library ops becomes
  /// one stitched kernel (StitchPlanner.h).
  bool fusion = true;
  /// true: kernels check what the reference interpreter refuses (an index
  /// out of range, an integer division by zero: HostPlan::checks) and the
  /// run reports it. false only to measure what the checks cost
  /// (xstitch-bench-ops --data-checks): out-of-range indices are then
  /// clamped and zero divisors give 0, silently.
  bool dataChecks = true;
};

struct ProgramPlan {
  std::vector<KernelPlan> kernels;
  HostPlan host;
  TargetDescription target; // what the plan is for
};

absl::StatusOr<ProgramPlan> planProgram(const Function &function, const TargetDescription &target,
                                        const PlanOptions &options);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_PLANPROGRAM_H
