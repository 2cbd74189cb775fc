#include "driver/NvidiaTargets.h"

#include "ir/Diagnostics.h"
#include "runtime/devices/Devices.h"

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

absl::StatusOr<NvidiaDeviceLimits> resolveNvidiaTarget(std::string_view target) {
  absl::StatusOr<DeviceSpec> device = parseDeviceName(target);
  if (device.ok() && device->platform == cudaPlatform().name)
    return queryNvidiaLimits(device->ordinal);
  if (!device.ok() && target.substr(0, 4) == "cuda")
    return device.status(); // says how a CUDA device is written
  return nvidiaPreset(target);
}

std::optional<std::string> presentNvidiaDevice() {
  if (resolveNvidiaTarget("cuda:0").ok())
    return "cuda:0";
  return std::nullopt;
}

} // namespace xs
