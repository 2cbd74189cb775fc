#ifndef XSTITCH_TESTS_UNIT_TESTDEVICES_H
#define XSTITCH_TESTS_UNIT_TESTDEVICES_H

// The devices that tests of compiled code run on: the CPU and the SIMT
// simulations (the code generated for NVIDIA and AMD GPUs, run thread by
// thread on the CPU: runtime/simt) always, and GPU 0 of each vendor whose
// driver sees one that xstitch generates code for (cuda:0, hip:0).
// CI's GPU runners set XSTITCH_REQUIRE_DEVICE=cuda (.github/workflows/ci.yml),
// AMD ones XSTITCH_REQUIRE_DEVICE=hip: there RequiredDevicesArePresent fails
// when the GPU is missing, instead of the GPU cases quietly not being
// instantiated.

#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "driver/Backends.h"
#include "runtime/devices/Devices.h"

namespace xs {

/// The platform XSTITCH_REQUIRE_DEVICE names ("cuda", "hip"), else empty.
inline std::string requiredTestPlatform() {
  const char *required = std::getenv("XSTITCH_REQUIRE_DEVICE");
  return required != nullptr ? std::string(required) : std::string();
}

inline const std::vector<std::string> &compiledTestDevices() {
  static const std::vector<std::string> *devices = [] {
    // Each simulation twice: variants of several phases as cooperative
    // kernels, and as a launch per phase; AMD's in wavefronts of 64 (gfx942)
    // and of 32 (gfx1100).
    auto *list = new std::vector<std::string>{"cpu", "nvptx-sim", "nvptx-sim:phases"};
    // AMD's where the build has its backend (not with the LLVM bundle).
    if (absl::StatusOr<DeviceSpec> amd = parseDeviceName("amdgpu-sim");
        amd.ok() && backendOf(*amd) != nullptr) {
      list->push_back("amdgpu-sim");
      list->push_back("amdgpu-sim:gfx1100:phases");
    }
    for (const Backend *backend : backends())
      if (backend->presentDevice)
        if (std::optional<std::string> gpu = backend->presentDevice())
          list->push_back(*gpu);
    return list;
  }();
  return *devices;
}

/// Whether a device of `platform` is among compiledTestDevices().
inline bool testDevicePresent(std::string_view platform) {
  for (const std::string &device : compiledTestDevices())
    if (absl::StatusOr<DeviceSpec> spec = parseDeviceName(device);
        spec.ok() && spec->platform == platform)
      return true;
  return false;
}

/// A gtest parameter name for a device: "cuda:0" -> "cuda0", "nvptx-sim" ->
/// "nvptxsim".
inline std::string deviceTestName(std::string device) {
  std::erase_if(device, [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); });
  return device;
}

} // namespace xs

#endif // XSTITCH_TESTS_UNIT_TESTDEVICES_H
