#ifndef XSTITCH_RUNTIME_EXECUTABLE_H
#define XSTITCH_RUNTIME_EXECUTABLE_H

// A compiled function loaded on a device: the host plan plus the loaded
// kernels. execute() runs the host plan (HostPlan.h) on the caller's tensors;
// several threads may call it on one Executable at once (all per-call state
// is per call).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Tensor.h"

namespace xs {

/// What one run did, for --bench and --report.
struct KernelTiming {
  std::string kernel;
  double seconds = 0;
};
struct RunStats {
  DimBindings dims;
  std::vector<KernelTiming> steps; // one per host step actually run (launch or library)
};

/// The tensors of one run and where its results go.
struct RunRequest {
  /// One per parameter.
  std::vector<TensorView> inputs;
  /// Empty (every result allocated by the run), or one per result: a view
  /// with data receives the result in its memory (its element type and
  /// shape must be the result's; a mismatch is InvalidArgument naming the
  /// result); a view without data is allocated by the run.
  std::vector<TensorView> outputs;
  /// The inputs and caller-provided outputs are in the device's own memory
  /// (a GPU's device addresses), and results the run allocates are left
  /// there. false: host memory. Devices that run on the host ignore it.
  bool deviceMemory = false;
  /// The device's stream to queue the work on (a CUstream for CUDA), or
  /// null for one of the device's own. With a stream given and
  /// deviceMemory, the run returns once its work is queued (the inputs
  /// must stay as they are until the stream has run it); otherwise it
  /// returns when the work is done. It never waits for the whole device.
  void *stream = nullptr;
};

struct RunResult {
  /// One per result: the memory the run allocated for it, or nullopt where
  /// the caller provided it (RunRequest::outputs).
  std::vector<std::optional<Tensor>> outputs;
  /// Each result's shape at this call's dims.
  std::vector<std::vector<int64_t>> shapes;
  /// Bytes the run copied between the caller's memory and its own: inputs
  /// less aligned than the kernels need, results that are an input or a
  /// constant or share memory with another result, and on a GPU, tensors in
  /// host memory moved to and from the device. 0 when every input was read
  /// and every caller-provided output written in place.
  int64_t bytesCopied = 0;
};

class Executable {
public:
  virtual ~Executable() = default;
  virtual const HostPlan &plan() const = 0;
  virtual std::string deviceName() const = 0;
  /// Runs on `request`. Input count, element types, ranks, the dims the
  /// signature fixes and the constraints are checked first; a violation is
  /// an InvalidArgument error naming the inputs and dims. With `stats`,
  /// times every step.
  virtual absl::StatusOr<RunResult> execute(const RunRequest &request,
                                            RunStats *stats = nullptr) const = 0;
  /// The executable that runs `inputs`: itself, or for a function compiled
  /// with broadcast speculation the variant their dims select
  /// (runtime/SpeculatedExecutable.h). Its plan is the one that sizes the
  /// results.
  virtual absl::StatusOr<const Executable *> resolve(const std::vector<TensorView> &inputs) const {
    (void)inputs;
    return this;
  }

  /// execute() on host `inputs`, every result allocated in host memory.
  absl::StatusOr<std::vector<Tensor>> run(const std::vector<TensorView> &inputs,
                                          RunStats *stats = nullptr) const;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_EXECUTABLE_H
