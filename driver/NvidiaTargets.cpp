#include "driver/NvidiaTargets.h"

#include "absl/strings/numbers.h"
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

std::string simulatedNvidiaTarget(std::string_view name) {
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? std::string(kDefaultSimulatedTarget)
                                         : std::string(name.substr(colon + 1));
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
