#include "runtime/devices/DevicePlatform.h"

#include <cassert>

namespace xs {

const std::vector<const DevicePlatform *> &devicePlatforms() {
  static const std::vector<const DevicePlatform *> platforms = {
      &cpuPlatform(),
      &cudaPlatform(),
      &hipPlatform(),
      &nvptxSimulationPlatform(),
      &amdgpuSimulationPlatform(),
      &nvidiaPresetPlatform(),
      &amdgpuPresetPlatform(),
  };
  return platforms;
}

const DevicePlatform &platformOf(const DeviceSpec &device) {
  for (const DevicePlatform *platform : devicePlatforms())
    if (platform->name == device.platform)
      return *platform;
  assert(false && "a DeviceSpec that parseDeviceName did not make");
  return cpuPlatform();
}

} // namespace xs
