#include "driver/NvidiaTargets.h"

#include "ir/Diagnostics.h"

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

absl::StatusOr<NvidiaDeviceLimits> queryNvidiaLimits(int ordinal) {
  XS_ASSIGN_OR_RETURN(const cuda::CudaDriver *driver, cuda::CudaDriver::get());
  XS_ASSIGN_OR_RETURN(cuda::CudaDeviceInfo device, driver->deviceInfo(ordinal));
  return nvidiaLimitsOf(device);
}

std::optional<std::string> presentNvidiaDevice() {
  if (queryNvidiaLimits(0).ok())
    return "cuda:0";
  return std::nullopt;
}

} // namespace xs
