#ifndef XSTITCH_DRIVER_AMDTARGETS_H
#define XSTITCH_DRIVER_AMDTARGETS_H

// Where an AMD target's limits come from: the GPU HIP queried (runtime/hip)
// or a named preset for ahead-of-time compilation
// (backends/amdgpu/AmdgpuTargetDescription.h). The driver is the one place
// that sees both.

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "backends/amdgpu/AmdgpuTargetDescription.h"
#include "runtime/hip/HipDriver.h"

namespace xs {

/// The limits of a queried GPU: its own counts, on top of the preset of its
/// processor where xstitch has one (for what HIP does not report: resident
/// workgroups per CU).
AmdgpuDeviceLimits amdgpuLimitsOf(const hip::HipDeviceInfo &device);

/// The limits of HIP device `ordinal`, queried through HIP. Errors say what
/// is missing (no ROCm, no such GPU).
absl::StatusOr<AmdgpuDeviceLimits> queryAmdgpuLimits(int ordinal);

/// "hip:0" where HIP sees an AMD GPU.
std::optional<std::string> presentAmdDevice();

} // namespace xs

#endif // XSTITCH_DRIVER_AMDTARGETS_H
