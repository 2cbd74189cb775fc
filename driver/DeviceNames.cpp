#include "driver/DeviceNames.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "driver/Backends.h"
#include "ir/Diagnostics.h"
#include "runtime/devices/Devices.h"

namespace xs {

absl::StatusOr<std::string> resolveDeviceName(std::string_view name, bool allowReference) {
  if (name == "auto")
    return presentAcceleratorDevice().value_or("cpu");
  if (allowReference && name == "ref")
    return std::string(name);
  // Devices that run code: a compile target (sm_90) is not one.
  std::vector<std::string> syntaxes;
  if (allowReference)
    syntaxes.push_back("ref");
  for (const DevicePlatform *platform : devicePlatforms()) {
    if (platform->load == nullptr)
      continue;
    if (std::optional<absl::StatusOr<DeviceSpec>> device = platform->parse(name)) {
      XS_RETURN_IF_ERROR(device->status());
      return (*device)->name;
    }
    syntaxes.emplace_back(platform->syntax);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown device '", std::string(name),
                                                 "'; devices are ", absl::StrJoin(syntaxes, ", "),
                                                 " and auto"));
}

absl::Status checkDeviceAvailable(std::string_view name) {
  XS_ASSIGN_OR_RETURN(DeviceSpec device, parseDeviceName(name));
  return resolveBackendTarget(device, CodegenOptions()).status();
}

} // namespace xs
