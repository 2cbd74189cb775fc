#ifndef XSTITCH_DRIVER_NVIDIATARGETS_H
#define XSTITCH_DRIVER_NVIDIATARGETS_H

// Where an NVIDIA target's limits come from: the GPU the CUDA runtime
// queried (runtime/cuda) or a named preset for ahead-of-time compilation
// (backends/nvptx). The driver is the one place that sees both.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "backends/nvptx/NvidiaTargetDescription.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/devices/Devices.h" // device names

namespace xs {

/// The limits of a queried device, in NvidiaDeviceLimits' terms.
NvidiaDeviceLimits nvidiaLimitsOf(const cuda::CudaDeviceInfo &device);

/// Checks an NVPTX simulation device's name: at most one preset (a known
/// one) and ":phases" at most once; anything else is an InvalidArgument
/// error saying how the name is written.
absl::Status checkNvptxSimulationName(std::string_view name);

/// `target` is a preset name ("sm_90"), or "cuda" / "cuda:N" for the limits
/// of CUDA device N (0 by default), queried through the driver. Errors say
/// what is missing (no driver, no such device) or list the presets.
absl::StatusOr<NvidiaDeviceLimits> resolveNvidiaTarget(std::string_view target);

/// The device `--device=auto` means: "cuda:0" where a driver sees a GPU that
/// xstitch generates code for, else "cpu".
std::string autoDevice();

} // namespace xs

#endif // XSTITCH_DRIVER_NVIDIATARGETS_H
