#include "driver/NvidiaTargets.h"

#include <algorithm>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "ir/Diagnostics.h"
#include "runtime/simt/SimtDevice.h"

namespace xs {

NvidiaDeviceLimits nvidiaLimitsOf(const cuda::CudaDeviceInfo &device) {
  NvidiaDeviceLimits l;
  l.arch = device.arch();
  l.part = device.name;
  l.smCount = device.multiprocessors;
  l.warpWidth = device.warpSize;
  l.maxThreadsPerBlock = device.maxThreadsPerBlock;
  l.maxThreadsPerSM = device.maxThreadsPerMultiprocessor;
  l.maxBlocksPerSM = device.maxBlocksPerMultiprocessor;
  l.sharedBytesPerBlock = device.sharedBytesPerBlockOptIn;
  l.sharedBytesPerSM = device.sharedBytesPerMultiprocessor;
  l.registersPerSM = device.registersPerMultiprocessor;
  l.registersPerBlock = device.registersPerBlock;
  l.l2Bytes = device.l2Bytes;
  return l;
}

bool isCudaDeviceName(std::string_view name) {
  return name == "cuda" || name.rfind("cuda:", 0) == 0;
}

bool isNvptxSimulationName(std::string_view name) {
  return name == kNvptxSimulationDevice ||
         name.rfind(std::string(kNvptxSimulationDevice) + ":", 0) == 0;
}

namespace {

/// The parts of an NVPTX simulation device's name after its colons.
std::vector<std::string> simulationNameParts(std::string_view name) {
  std::vector<std::string> parts = absl::StrSplit(absl::string_view(name.data(), name.size()), ':');
  parts.erase(parts.begin());
  return parts;
}

} // namespace

std::string simulatedNvidiaTarget(std::string_view name) {
  for (const std::string &part : simulationNameParts(name))
    if (part != kPhaseLaunches)
      return part;
  return kDefaultSimulatedTarget;
}

absl::Status checkNvptxSimulationName(std::string_view name) {
  int presets = 0, phases = 0;
  for (const std::string &part : simulationNameParts(name))
    ++(part == kPhaseLaunches ? phases : presets);
  if (presets > 1 || phases > 1)
    return absl::InvalidArgumentError(strCat(
        "'", name, "' is not an NVPTX simulation device: write nvptx-sim[:sm_XX][:", kPhaseLaunches,
        "]"));
  return nvidiaPreset(simulatedNvidiaTarget(name)).status();
}

bool simulatesCooperativeLaunches(std::string_view name) {
  std::vector<std::string> parts = simulationNameParts(name);
  return std::find(parts.begin(), parts.end(), kPhaseLaunches) == parts.end();
}

absl::StatusOr<int> cudaOrdinal(std::string_view name) {
  int ordinal = 0;
  if (!isCudaDeviceName(name) ||
      (name.size() > 5 &&
       (!absl::SimpleAtoi(absl::string_view(name.data() + 5, name.size() - 5), &ordinal) ||
        ordinal < 0)))
    return absl::InvalidArgumentError(
        strCat("'", name, "' names no CUDA device: write cuda or cuda:N with N >= 0"));
  return ordinal;
}

absl::StatusOr<NvidiaDeviceLimits> resolveNvidiaTarget(std::string_view target) {
  if (!isCudaDeviceName(target))
    return nvidiaPreset(target);
  XS_ASSIGN_OR_RETURN(int ordinal, cudaOrdinal(target));
  XS_ASSIGN_OR_RETURN(const cuda::CudaDriver *driver, cuda::CudaDriver::get());
  XS_ASSIGN_OR_RETURN(cuda::CudaDeviceInfo device, driver->deviceInfo(ordinal));
  return nvidiaLimitsOf(device);
}

std::string autoDevice() { return resolveNvidiaTarget("cuda:0").ok() ? "cuda:0" : "cpu"; }

} // namespace xs
