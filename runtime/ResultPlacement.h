#ifndef XSTITCH_RUNTIME_RESULTPLACEMENT_H
#define XSTITCH_RUNTIME_RESULTPLACEMENT_H

// Where a run's results go (RunRequest::outputs): the kernels write a result
// straight into the memory the caller provided for it when the result is an
// Output buffer of its own and that memory is as aligned as the kernels need;
// every other result (an input, a constant, a view of one, a buffer that is
// several results, a less aligned destination) is copied once the steps ran.
// Every device's Executable places its results with this.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/Tensor.h"

namespace xs {

struct ResultPlacement {
  /// Per result: the buffer whose memory holds it (alias chains followed).
  std::vector<size_t> source;
  /// Per buffer: the result whose caller-provided memory the kernels write
  /// it into, or -1.
  std::vector<int> writtenInto;
  /// Per result: the Output buffer's storage is handed to it (a result the
  /// run allocates; only the first result of a buffer gets it).
  std::vector<bool> handedOver;
  /// Per result: the caller provided its memory.
  std::vector<bool> provided;
};

/// Checks `outputs` (empty, or one per result; see RunRequest::outputs)
/// against the results' element types and shapes at the call's `layout`,
/// and places every result. The kernels write into a destination only when
/// `kernelsReach` (it is memory they can address: false for host memory on
/// a GPU) and its address is a multiple of `alignment` and of the element
/// size; every other destination is copied into. Errors are
/// InvalidArgument naming the result.
absl::StatusOr<ResultPlacement> placeResults(const HostPlan &plan, const BufferLayout &layout,
                                             const std::vector<TensorView> &outputs,
                                             bool kernelsReach, int64_t alignment);

/// The name of result `index` in messages: its buffer's `%name`.
std::string resultName(const HostPlan &plan, size_t index);

/// How a device hands a run's results over once its steps ran.
struct ResultDelivery {
  /// `bytes` of memory for a result the run allocates; nullptr when out of
  /// memory (`memory` names it in the error: "host", "GPU").
  std::function<std::shared_ptr<void>(int64_t bytes)> allocate;
  std::string memory;
  /// Copies `bytes` of buffer `buffer` of the run to `destination`.
  std::function<absl::Status(void *destination, size_t buffer, int64_t bytes)> copy;
  /// The run's own Output buffers may be handed to the caller as they are
  /// (false: results are copied out, e.g. from a GPU to the host).
  bool handOver = true;
};

/// Fills `result` with every result's shape and, for results the kernels
/// did not write in place, its memory: an Output buffer handed over
/// (`owned`, per buffer), or a copy into the caller's or newly allocated
/// memory, counted in RunResult::bytesCopied.
absl::Status deliverResults(const HostPlan &plan, const BufferLayout &layout,
                            const ResultPlacement &placement,
                            const std::vector<TensorView> &requestedOutputs,
                            const std::vector<std::shared_ptr<void>> &owned,
                            const ResultDelivery &delivery, RunResult &result);

} // namespace xs

#endif // XSTITCH_RUNTIME_RESULTPLACEMENT_H
