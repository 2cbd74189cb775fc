#ifndef XSTITCH_RUNTIME_DEVICES_GPUPLATFORMS_H
#define XSTITCH_RUNTIME_DEVICES_GPUPLATFORMS_H

// What the platforms of present GPUs (cuda:N, hip:N) share: their names'
// syntax and one device per GPU for the process.

#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/Device.h"
#include "runtime/devices/DeviceSpec.h"
#include "runtime/gpu/GpuContext.h"

namespace xs {

/// `platform` (GPU 0) or `platform`:N; nullopt where `name` is another
/// platform's, an error saying how the name is written where N is not an
/// ordinal. `vendor` names the devices in that error ("CUDA", "HIP").
std::optional<absl::StatusOr<DeviceSpec>>
parseGpuOrdinalName(std::string_view name, std::string_view platform, std::string_view vendor);

using CreateGpuDevice =
    absl::StatusOr<std::unique_ptr<Device>> (*)(int ordinal, const gpu::GpuContextOptions &options);

/// The process's device of `device` (a parsed `platform`:N) with launches
/// synchronized or not, created by `create` at first use. A GPU that cannot
/// be opened is tried again at the next call (the error may be transient);
/// one whose context a kernel fault left unusable is replaced by a device
/// on a reset context (the executables loaded on the old one keep failing,
/// saying so).
absl::StatusOr<Device *> processGpuDevice(const DeviceSpec &device, bool syncLaunches,
                                          CreateGpuDevice create);

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_GPUPLATFORMS_H
