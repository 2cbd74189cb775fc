#ifndef XSTITCH_RUNTIME_HOSTPLANEXECUTION_H
#define XSTITCH_RUNTIME_HOSTPLANEXECUTION_H

// The device-independent part of running a HostPlan (ir/HostPlan.h): binding
// symbols from the input shapes and checking them, sizing buffers and the
// arena of temporaries, choosing launch variants and the kernels' dims array.
// Every device's Executable runs its steps on top of these.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"
#include "runtime/Tensor.h"

namespace xs {

/// Structural checks of a plan built by the planner (buffer indices, alias
/// chains, launch variants): a violation is a bug in xstitch, reported once
/// when a device loads the plan instead of crashing in run(). Internal error.
absl::Status checkHostPlan(const HostPlan &plan);

/// Binds the plan's symbols from the shapes of `inputs` (one per parameter,
/// typed by HostPlan::paramTypes), computes the host symbols (reading the
/// elements of the inputs they use, which must be in host memory), derives
/// the symbols defined by others and checks every dim of every parameter and
/// every constraint. Errors are
/// InvalidArgument and name the inputs and dims involved, e.g.
/// "inputs %a and %b must share S: %a has S = 3 (dim 1) but %b has 4 (dim 0)".
absl::StatusOr<DimBindings> bindInputDims(const HostPlan &plan,
                                          const std::vector<TensorView> &inputs);

/// The concrete sizes of a plan's buffers at one call's dims.
struct BufferLayout {
  std::vector<std::vector<int64_t>> shapes; // per buffer
  std::vector<int64_t> bytes;               // per buffer
  /// Byte offset of each slot in the arena (each 64-byte aligned).
  std::vector<int64_t> slotOffsets;
  int64_t arenaBytes = 0;
};

absl::StatusOr<BufferLayout> layoutBuffers(const HostPlan &plan, const DimBindings &dims);

/// The index of the first variant of a launch step whose predicates hold.
absl::StatusOr<size_t> chooseVariant(const HostStep &step, const DimBindings &dims);

/// The values of HostPlan::symbols in order, then the run's status word
/// (0): the `dims` argument of kernels (backends/common/KernelABI.h).
absl::StatusOr<std::vector<int64_t>> symbolValues(const HostPlan &plan, const DimBindings &dims);

/// The run's outcome from its status word (KernelABI.h: 0 is OK): an
/// InvalidArgument error naming the op whose check failed and what it
/// found ("%g = gather in kernel k0: index 5 is out of range for a dim of
/// size 3 (valid: -3 to 2)"), as the reference interpreter would refuse
/// the inputs.
absl::Status checkStatusWord(const HostPlan &plan, uint64_t word, const DimBindings &dims);

/// The real buffer alias buffer `index` views (itself when it is no alias);
/// checkHostPlan() proved every chain ends at one.
size_t aliasTarget(const HostPlan &plan, size_t index);

/// The values of Constant buffer `buffer` as typed memory; a constant whose
/// values are not of its type is an Internal error (a bug in the planner).
absl::StatusOr<Tensor> constantTensor(const HostBuffer &buffer);

/// A dim expression of a launch (its grid, blocks per task, block-buffer
/// bytes) at the call's dims: a value that does not evaluate or is negative
/// is an Internal error naming the kernel and `what`.
absl::StatusOr<int64_t> launchQuantity(const HostStep &step, std::string_view what,
                                       const DimExpr &expr, const DimBindings &dims);

/// A step's name in timings: its kernel, or its library op.
std::string hostStepName(const HostStep &step);

/// Runs the plan's launch and library steps in order through `runStep`
/// (step, index); alias steps are views resolved before and cost nothing.
/// With `stats`, times each step; `waitForStep` (may be empty) first waits
/// for work a device queued asynchronously, so that it is counted.
absl::Status runHostSteps(const HostPlan &plan, RunStats *stats,
                          const std::function<absl::Status(const HostStep &, size_t)> &runStep,
                          const std::function<absl::Status()> &waitForStep = {});

/// `%name` of parameter `index` (from the plan's input buffers).
std::string inputName(const HostPlan &plan, size_t index);

} // namespace xs

#endif // XSTITCH_RUNTIME_HOSTPLANEXECUTION_H
