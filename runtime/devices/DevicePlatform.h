#ifndef XSTITCH_RUNTIME_DEVICES_DEVICEPLATFORM_H
#define XSTITCH_RUNTIME_DEVICES_DEVICEPLATFORM_H

// A kind of device as the runtime knows it: how its names are written and
// parsed, which compiled code runs on it, and how a program is loaded on
// one. Each platform is defined beside its devices and listed once in
// DevicePlatforms.cpp; the compile side has its own list of backends
// (driver/Backends.h), because the runtime-only library links no compiler.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"
#include "runtime/devices/DeviceSpec.h"

namespace xs {

struct LoadOptions;

struct DevicePlatform {
  /// DeviceSpec::platform.
  std::string_view name;
  /// How its names are written, for messages: "cuda[:N]".
  std::string_view syntax;
  /// What the code compiled for it is, for checking that a program file
  /// runs on a device: platforms with the same family run each other's
  /// code ("x86" for the CPU, "ptx" for NVIDIA GPUs and their presets).
  std::string_view codeFamily;
  /// The device a program file compiled for this platform loads on when the
  /// caller names none: empty for the device it was compiled for.
  std::string_view defaultRunDevice;
  /// nullopt: `name` is not this platform's; else its parse, an error
  /// saying how the name is written where it is misspelled.
  std::optional<absl::StatusOr<DeviceSpec>> (*parse)(std::string_view name);
  /// Loads a program on the device; null for compile targets (presets),
  /// whose code runs on another platform's devices.
  absl::StatusOr<std::shared_ptr<Executable>> (*load)(CompiledProgram program,
                                                      const DeviceSpec &device,
                                                      const LoadOptions &options);
};

/// Every platform, in the order `auto` and messages list them.
const std::vector<const DevicePlatform *> &devicePlatforms();

/// The platform of a parsed device (DeviceSpec::platform names one).
const DevicePlatform &platformOf(const DeviceSpec &device);

/// The platforms, defined beside their devices (DevicePlatforms.cpp lists them).
const DevicePlatform &cpuPlatform();
const DevicePlatform &nvptxSimulationPlatform();
const DevicePlatform &amdgpuSimulationPlatform();
const DevicePlatform &cudaPlatform();
const DevicePlatform &hipPlatform();
const DevicePlatform &nvidiaPresetPlatform();
const DevicePlatform &amdgpuPresetPlatform();

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_DEVICEPLATFORM_H
