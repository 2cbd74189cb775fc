#ifndef XSTITCH_RUNTIME_GPU_GPUDEVICE_H
#define XSTITCH_RUNTIME_GPU_GPUDEVICE_H

// A GPU device (cuda:N, hip:N): one GPU through a vendor's driver
// (GpuDriver.h). It loads programs whose kernels are in the driver's code
// format (GpuExecutable.h); memory comes from a caching allocator of device
// memory, work goes to a pool of streams (GpuContext.h).

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/Device.h"
#include "runtime/gpu/GpuContext.h"

namespace xs::gpu {

/// GPU `ordinal` through `driver`. Errors say what is missing: no such GPU
/// (InvalidArgument, naming the GPUs there are) or the driver's own.
absl::StatusOr<std::unique_ptr<Device>> createGpuDevice(std::shared_ptr<const GpuDriver> driver,
                                                        int ordinal,
                                                        const GpuContextOptions &options);

} // namespace xs::gpu

#endif // XSTITCH_RUNTIME_GPU_GPUDEVICE_H
