#include "runtime/cuda/CudaDevice.h"

#include "ir/Diagnostics.h"
#include "runtime/gpu/GpuDevice.h"

namespace xs::cuda {

absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDriver &driver,
                                                         const CudaDeviceOptions &options) {
  return gpu::createGpuDevice(cudaGpuDriver(driver, options.findCublasLt), options.ordinal,
                              options.context);
}

absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDeviceOptions &options) {
  XS_ASSIGN_OR_RETURN(const CudaDriver *driver, CudaDriver::get());
  return createCudaDevice(*driver, options);
}

} // namespace xs::cuda
