#ifndef XSTITCH_RUNTIME_HIP_HIPDEVICE_H
#define XSTITCH_RUNTIME_HIP_HIPDEVICE_H

// The HIP device: one AMD GPU through HIP (HipDriver.h, loaded at run time),
// as a GPU device of the shared GPU runtime (runtime/gpu/GpuDevice.h) over
// HipGpuDriver.h: programs whose kernels are HSA code objects.

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/Device.h"
#include "runtime/gpu/GpuContext.h"
#include "runtime/hip/HipDriver.h"
#include "runtime/hip/HipGpuDriver.h"

namespace xs::hip {

struct HipDeviceOptions {
  int ordinal = 0; // hip:N
  gpu::GpuContextOptions context;
  /// rocBLAS for `dot` (tests give a recording one, or none).
  FindRocblas findRocblas = &RocblasLibrary::get;
};

/// GPU `options.ordinal` through `driver`, which must outlive the device and
/// everything loaded on it (the process's driver does). Errors say what is
/// missing: no such GPU (InvalidArgument, naming the GPUs there are) or
/// HIP's own.
absl::StatusOr<std::unique_ptr<Device>> createHipDevice(const HipDriver &driver,
                                                        const HipDeviceOptions &options);
/// The same through the process's HIP (HipDriver::get(): no ROCm, or no AMD
/// GPU, is a FailedPrecondition error saying so).
absl::StatusOr<std::unique_ptr<Device>> createHipDevice(const HipDeviceOptions &options);

} // namespace xs::hip

#endif // XSTITCH_RUNTIME_HIP_HIPDEVICE_H
