#include "runtime/devices/GpuPlatforms.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "ir/Diagnostics.h"

namespace xs {

std::optional<absl::StatusOr<DeviceSpec>>
parseGpuOrdinalName(std::string_view name, std::string_view platform, std::string_view vendor) {
  std::string_view rest = name.substr(std::min(name.size(), platform.size()));
  if (name.substr(0, platform.size()) != platform || (!rest.empty() && rest[0] != ':'))
    return std::nullopt;
  int ordinal = 0;
  if (!rest.empty() &&
      (!absl::SimpleAtoi(absl::string_view(rest.data() + 1, rest.size() - 1), &ordinal) ||
       ordinal < 0))
    return absl::StatusOr<DeviceSpec>(
        absl::InvalidArgumentError(strCat("'", name, "' names no ", vendor, " device: write ",
                                          platform, " or ", platform, ":N with N >= 0")));
  return DeviceSpec{.platform = std::string(platform),
                    .name = strCat(platform, ":", ordinal),
                    .ordinal = ordinal};
}

absl::StatusOr<Device *> processGpuDevice(const DeviceSpec &device, bool syncLaunches,
                                          CreateGpuDevice create) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices =
      new std::map<std::tuple<std::string, int, bool>, std::shared_ptr<Device>>();
  static auto *faulted = new std::vector<std::shared_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::shared_ptr<Device> &gpu = (*devices)[{device.platform, device.ordinal, syncLaunches}];
  bool reset = false;
  if (gpu && !gpu->usable()) {
    // Devices are handed out as plain pointers: the old one stays alive.
    faulted->push_back(std::move(gpu));
    reset = true;
  }
  if (!gpu) {
    gpu::GpuContextOptions options;
    options.syncLaunches = syncLaunches;
    options.resetPrimaryContext = reset;
    XS_ASSIGN_OR_RETURN(gpu, create(device.ordinal, options));
  }
  return gpu.get();
}

} // namespace xs
