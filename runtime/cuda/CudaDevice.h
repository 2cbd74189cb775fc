#ifndef XSTITCH_RUNTIME_CUDA_CUDADEVICE_H
#define XSTITCH_RUNTIME_CUDA_CUDADEVICE_H

// The CUDA device: one NVIDIA GPU through the Driver API (CudaDriver.h, loaded
// at run time), as a GPU device of the shared GPU runtime (runtime/gpu/
// GpuDevice.h) over CudaGpuDriver.h: programs whose kernels are PTX, dot
// through cuBLASLt.

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/Device.h"
#include "runtime/cuda/CudaGpuDriver.h"
#include "runtime/gpu/GpuContext.h"

namespace xs::cuda {

struct CudaDeviceOptions {
  int ordinal = 0; // cuda:N
  gpu::GpuContextOptions context;
  FindCublasLt findCublasLt = &CublasLtLibrary::get;
};

/// GPU `options.ordinal` through `driver`, which must outlive the device and
/// everything loaded on it (the process's driver does). Errors say what is
/// missing: no such GPU (InvalidArgument, naming the GPUs there are) or the
/// driver's own.
absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDriver &driver,
                                                         const CudaDeviceOptions &options);
/// The same through the process's driver (CudaDriver::get(): no NVIDIA driver
/// is a FailedPrecondition error saying so).
absl::StatusOr<std::unique_ptr<Device>> createCudaDevice(const CudaDeviceOptions &options);

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUDADEVICE_H
