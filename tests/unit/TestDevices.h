#ifndef XSTITCH_TESTS_UNIT_TESTDEVICES_H
#define XSTITCH_TESTS_UNIT_TESTDEVICES_H

// The devices that tests of compiled code run on: the CPU always, and CUDA
// GPU 0 where the NVIDIA driver sees one that xstitch generates code for.
// CI's GPU runners set XSTITCH_REQUIRE_DEVICE=cuda (.github/workflows/ci.yml):
// there RequiredDevicesArePresent fails when the GPU is missing, instead of
// the GPU cases quietly not being instantiated.

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "driver/NvidiaTargets.h"

namespace xs {

inline bool cudaRequiredForTests() {
  const char *required = std::getenv("XSTITCH_REQUIRE_DEVICE");
  return required != nullptr && std::string_view(required) == "cuda";
}

inline const std::vector<std::string> &compiledTestDevices() {
  static const std::vector<std::string> *devices = [] {
    auto *list = new std::vector<std::string>{"cpu"};
    if (std::string gpu = autoDevice(); gpu != "cpu")
      list->push_back(gpu);
    return list;
  }();
  return *devices;
}

/// A gtest parameter name for a device: "cuda:0" -> "cuda0".
inline std::string deviceTestName(std::string device) {
  std::erase(device, ':');
  return device;
}

} // namespace xs

#endif // XSTITCH_TESTS_UNIT_TESTDEVICES_H
