#ifndef XSTITCH_BENCH_GPUCOPYFLOOR_H
#define XSTITCH_BENCH_GPUCOPYFLOOR_H

// The memory floor of a GPU (NVIDIA through CUDA, AMD through HIP): a
// device-to-device copy of a large buffer (far beyond the L2) through the
// vendor's runtime, timed on the host after the stream drains, counted as
// bytes read + bytes written.

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/devices/DeviceSpec.h"
#include "runtime/gpu/GpuContext.h"

namespace xs::bench {

class GpuCopyFloor {
public:
  /// Buffers of `bytes` on `device` (cuda:N or hip:N).
  static absl::StatusOr<std::unique_ptr<GpuCopyFloor>> create(const DeviceSpec &device,
                                                              size_t bytes);
  /// Bytes per second (read + written), median of `iters` copies.
  absl::StatusOr<double> measure(int iters = 7);

private:
  std::shared_ptr<gpu::GpuContext> context_;
  std::shared_ptr<void> source_, destination_;
  size_t bytes_ = 0;
};

} // namespace xs::bench

#endif // XSTITCH_BENCH_GPUCOPYFLOOR_H
