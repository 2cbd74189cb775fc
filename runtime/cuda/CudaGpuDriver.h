#ifndef XSTITCH_RUNTIME_CUDA_CUDAGPUDRIVER_H
#define XSTITCH_RUNTIME_CUDA_CUDAGPUDRIVER_H

// The GPU runtime's driver interface (runtime/gpu/GpuDriver.h) over the CUDA
// Driver API: PTX modules the driver JIT-compiles (its log kept for a
// refusal, the PTX ISA checked against the driver's CUDA version first),
// kernels under their PTX names (nvptxSymbol), shared memory past 48 KiB by
// opt-in, and cuBLASLt for `dot`.

#include <memory>

#include "runtime/cuda/CublasLt.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/gpu/GpuDriver.h"

namespace xs::cuda {

/// Where cuBLASLt comes from: the process's, found on first use; tests give
/// a recording one, or an error for a machine without it.
using FindCublasLt = absl::StatusOr<const CublasLtLibrary *> (*)();

/// `driver` must outlive the returned object (the process's driver does).
std::shared_ptr<const gpu::GpuDriver>
cudaGpuDriver(const CudaDriver &driver, FindCublasLt findCublasLt = &CublasLtLibrary::get);

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUDAGPUDRIVER_H
