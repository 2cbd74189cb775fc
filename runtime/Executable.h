#ifndef XSTITCH_RUNTIME_EXECUTABLE_H
#define XSTITCH_RUNTIME_EXECUTABLE_H

// A compiled function loaded on a device: the host plan plus the loaded
// kernels. run() executes the host plan (HostPlan.h); several threads may call
// run() on one Executable at once (all per-call state is per call).

#include <memory>
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

class Executable {
public:
  virtual ~Executable() = default;
  virtual const HostPlan &plan() const = 0;
  virtual std::string deviceName() const = 0;
  /// Runs on `inputs` (one per parameter). Input count, element types, ranks,
  /// the dims the signature fixes and the constraints are checked first; a
  /// violation is an InvalidArgument error naming the inputs and dims. With
  /// `stats`, times every step.
  virtual absl::StatusOr<std::vector<Tensor>> run(const std::vector<TensorView> &inputs,
                                                  RunStats *stats = nullptr) const = 0;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_EXECUTABLE_H
