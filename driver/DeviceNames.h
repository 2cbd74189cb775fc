#ifndef XSTITCH_DRIVER_DEVICENAMES_H
#define XSTITCH_DRIVER_DEVICENAMES_H

// Device names as users write them (--device, the C API's options) turned
// into the names the compile driver takes: `auto` becomes the best device
// present, `cuda` becomes cuda:0, and a name xstitch does not know is an
// error listing the ones it does.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace xs {

/// The canonical name of `name`, a device that runs code (cpu, cuda:N,
/// nvptx-sim[:sm_XX][:phases]; runtime/devices/Devices.h),
/// or `ref` where `allowReference` (the reference interpreter, for tools).
/// `auto` picks the first present GPU of the backends' (driver/Backends.h:
/// cuda:0 where the NVIDIA driver sees one), else cpu.
/// Errors are InvalidArgument and list the names there are.
absl::StatusOr<std::string> resolveDeviceName(std::string_view name, bool allowReference = false);

/// Whether the device `name` (canonical) can be used here: for cuda:N, that
/// the NVIDIA driver loads and GPU N is there. The error says what is
/// missing.
absl::Status checkDeviceAvailable(std::string_view name);

} // namespace xs

#endif // XSTITCH_DRIVER_DEVICENAMES_H
