#include "runtime/hip/HipDevice.h"

#include "ir/Diagnostics.h"
#include "runtime/gpu/GpuDevice.h"
#include "runtime/hip/HipGpuDriver.h"

namespace xs::hip {

absl::StatusOr<std::unique_ptr<Device>> createHipDevice(const HipDriver &driver,
                                                        const HipDeviceOptions &options) {
  return gpu::createGpuDevice(hipGpuDriver(driver, options.findRocblas), options.ordinal,
                              options.context);
}

absl::StatusOr<std::unique_ptr<Device>> createHipDevice(const HipDeviceOptions &options) {
  XS_ASSIGN_OR_RETURN(const HipDriver *driver, HipDriver::get());
  return createHipDevice(*driver, options);
}

} // namespace xs::hip
