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

absl::Status checkNvptxSimulationName(std::string_view name) {
  int presets = 0, phases = 0;
  for (const std::string &part : nvptxSimulationNameParts(name))
    ++(part == kPhaseLaunches ? phases : presets);
  if (presets > 1 || phases > 1)
    return absl::InvalidArgumentError(strCat(
        "'", name, "' is not an NVPTX simulation device: write nvptx-sim[:sm_XX][:", kPhaseLaunches,
        "]"));
  return nvidiaPreset(simulatedNvidiaTarget(name)).status();
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
