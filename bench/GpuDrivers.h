#ifndef XSTITCH_BENCH_GPUDRIVERS_H
#define XSTITCH_BENCH_GPUDRIVERS_H

// The vendor runtime of a present GPU (cuda:N through the CUDA driver, hip:N
// through HIP), for benchmarks that hold a GPU context of their own beside
// the executables they time: the copy floor, the caller's stream and
// tensors.

#include <dlpack/dlpack.h>

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/devices/DeviceSpec.h"
#include "runtime/gpu/GpuDriver.h"

namespace xs::bench {

/// The process's driver of `device`'s vendor; an error for a device that is
/// not a present GPU, or where the vendor's library does not load.
absl::StatusOr<std::shared_ptr<const gpu::GpuDriver>> gpuDriverOf(const DeviceSpec &device);

/// DLPack's device type for tensors in `device`'s memory (kDLCUDA, kDLROCM).
DLDeviceType dlpackDeviceTypeOf(const DeviceSpec &device);

} // namespace xs::bench

#endif // XSTITCH_BENCH_GPUDRIVERS_H
