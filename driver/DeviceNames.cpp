#include "driver/DeviceNames.h"

#include "absl/strings/str_cat.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"

namespace xs {

absl::StatusOr<std::string> resolveDeviceName(std::string_view name, bool allowReference) {
  if (name == "auto")
    return autoDevice();
  if (name == "cpu" || (allowReference && name == "ref"))
    return std::string(name);
  if (isCudaDeviceName(name)) {
    XS_ASSIGN_OR_RETURN(int ordinal, cudaOrdinal(name));
    return absl::StrCat("cuda:", ordinal);
  }
  if (isNvptxSimulationName(name)) {
    XS_RETURN_IF_ERROR(checkNvptxSimulationName(name));
    return std::string(name);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown device '", std::string(name), "'; devices are ", allowReference ? "ref, " : "",
      "cpu, cuda[:N], nvptx-sim[:sm_XX][:phases] and auto"));
}

absl::Status checkDeviceAvailable(std::string_view name) {
  if (isCudaDeviceName(name))
    return resolveNvidiaTarget(name).status();
  return absl::OkStatus();
}

} // namespace xs
