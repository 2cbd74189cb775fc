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

namespace xs {

/// The limits of a queried device, in NvidiaDeviceLimits' terms.
NvidiaDeviceLimits nvidiaLimitsOf(const cuda::CudaDeviceInfo &device);

/// Whether `name` names a CUDA device ("cuda", "cuda:N").
bool isCudaDeviceName(std::string_view name);
/// N of "cuda:N" (0 for "cuda"); anything else is an InvalidArgument error.
absl::StatusOr<int> cudaOrdinal(std::string_view name);

/// Whether `name` names the NVPTX simulation ("nvptx-sim", "nvptx-sim:sm_80",
/// "nvptx-sim:sm_80:phases"; runtime/simt/SimtDevice.h).
bool isNvptxSimulationName(std::string_view name);
/// The preset an NVPTX simulation device simulates: the part after a colon
/// that is not kPhaseLaunches, else kDefaultSimulatedTarget. Checked when
/// the preset is resolved.
std::string simulatedNvidiaTarget(std::string_view name);
inline constexpr const char *kDefaultSimulatedTarget = "sm_90";
/// Whether an NVPTX simulation device launches variants of several phases
/// as their cooperative kernel (as a GPU that supports it does), unless its
/// name ends in ":phases": then as a launch per phase (as one that does
/// not), so that both kinds of kernel are checked.
bool simulatesCooperativeLaunches(std::string_view name);
inline constexpr const char *kPhaseLaunches = "phases";
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
