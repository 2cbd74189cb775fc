#ifndef XSTITCH_RUNTIME_HIP_HIPGPUDRIVER_H
#define XSTITCH_RUNTIME_HIP_HIPGPUDRIVER_H

// The GPU runtime's driver interface (runtime/gpu/GpuDriver.h) over HIP's
// module API: HSA code objects (HSACO) loaded as they are (nothing is
// compiled at load, so there is no log), kernels under the plan's own
// symbols, up to the GPU's whole LDS per workgroup without an opt-in,
// cooperative launches where the library has hipModuleLaunchCooperativeKernel
// (ROCm 6 and newer; elsewhere phases are launches one after another). The
// "context" is the device: HIP makes a GPU current per thread with
// hipSetDevice, so a context handle is its ordinal + 1 (null: none yet).
// `dot` runs on the GPU through rocBLAS (HipMatmul.h) where it is installed,
// else on the host.

#include <memory>

#include "runtime/gpu/GpuDriver.h"
#include "runtime/hip/HipDriver.h"
#include "runtime/hip/Rocblas.h"

namespace xs::hip {

/// Where rocBLAS comes from: the process's, found on first use; tests give
/// a recording one, or an error for a machine without it.
using FindRocblas = absl::StatusOr<const RocblasLibrary *> (*)();

/// `driver` must outlive the returned object (the process's driver does).
std::shared_ptr<const gpu::GpuDriver> hipGpuDriver(const HipDriver &driver,
                                                   FindRocblas findRocblas = &RocblasLibrary::get);

} // namespace xs::hip

#endif // XSTITCH_RUNTIME_HIP_HIPGPUDRIVER_H
