#ifndef XSTITCH_DRIVER_NVIDIATARGETS_H
#define XSTITCH_DRIVER_NVIDIATARGETS_H

// Where an NVIDIA target's limits come from: the GPU the CUDA runtime
// queried (runtime/cuda) or a named preset for ahead-of-time compilation
// (backends/nvptx/NvidiaTargetDescription.h). The driver is the one place
// that sees both.

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "backends/nvptx/NvidiaTargetDescription.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/devices/DeviceSpec.h"

namespace xs {

/// The limits of a queried device, in NvidiaDeviceLimits' terms.
NvidiaDeviceLimits nvidiaLimitsOf(const cuda::CudaDeviceInfo &device);

/// The limits of CUDA device `ordinal`, queried through the driver. Errors
/// say what is missing (no driver, no such device).
absl::StatusOr<NvidiaDeviceLimits> queryNvidiaLimits(int ordinal);

/// "cuda:0" where a driver sees a GPU that xstitch generates code for.
std::optional<std::string> presentNvidiaDevice();

} // namespace xs

#endif // XSTITCH_DRIVER_NVIDIATARGETS_H
