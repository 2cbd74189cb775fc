#include "bench/GpuDrivers.h"

#include "ir/Diagnostics.h"
#include "runtime/cuda/CudaGpuDriver.h"
#include "runtime/devices/DevicePlatform.h"
#include "runtime/hip/HipGpuDriver.h"

namespace xs::bench {

absl::StatusOr<std::shared_ptr<const gpu::GpuDriver>> gpuDriverOf(const DeviceSpec &device) {
  if (device.platform == cudaPlatform().name) {
    XS_ASSIGN_OR_RETURN(const cuda::CudaDriver *driver, cuda::CudaDriver::get());
    return cuda::cudaGpuDriver(*driver);
  }
  if (device.platform == hipPlatform().name) {
    XS_ASSIGN_OR_RETURN(const hip::HipDriver *driver, hip::HipDriver::get());
    return hip::hipGpuDriver(*driver);
  }
  return absl::InvalidArgumentError(
      strCat("'", device.name, "' is not a present GPU: use cuda[:N] or hip[:N]"));
}

DLDeviceType dlpackDeviceTypeOf(const DeviceSpec &device) {
  return device.platform == hipPlatform().name ? kDLROCM : kDLCUDA;
}

} // namespace xs::bench
