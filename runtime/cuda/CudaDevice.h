#ifndef XSTITCH_RUNTIME_CUDA_CUDADEVICE_H
#define XSTITCH_RUNTIME_CUDA_CUDADEVICE_H

// The CUDA device: one NVIDIA GPU through the Driver API (CudaDriver.h, loaded
// at run time). It loads programs whose kernels are PTX (CudaExecutable.h);
// memory comes from a caching allocator of device memory, work goes to a pool
// of streams (CudaContext.h).

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/Device.h"
#include "runtime/cuda/CudaContext.h"

namespace xs::cuda {

struct CudaDeviceOptions {
  int ordinal = 0; // cuda:N
  CudaContextOptions context;
};

/// GPU `options.ordinal` through `driver`. Errors say what is missing: no
/// such GPU (InvalidArgument, naming the GPUs there are) or the driver's own.
absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDriver &driver,
                                                         const CudaDeviceOptions &options);
/// The same through the process's driver (CudaDriver::get(): no NVIDIA driver
/// is a FailedPrecondition error saying so).
absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDeviceOptions &options);

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUDADEVICE_H
