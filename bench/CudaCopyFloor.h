#ifndef XSTITCH_BENCH_CUDACOPYFLOOR_H
#define XSTITCH_BENCH_CUDACOPYFLOOR_H

// The memory floor of a CUDA GPU: a device-to-device copy of a large buffer
// (far beyond the L2) through the driver, timed on the host after the
// stream drains, counted as bytes read + bytes written.

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/gpu/GpuContext.h"

namespace xs::bench {

class CudaCopyFloor {
public:
  /// Buffers of `bytes` on GPU `ordinal`.
  static absl::StatusOr<std::unique_ptr<CudaCopyFloor>> create(int ordinal, size_t bytes);
  /// Bytes per second (read + written), median of `iters` copies.
  absl::StatusOr<double> measure(int iters = 7);

private:
  std::shared_ptr<gpu::GpuContext> context_;
  std::shared_ptr<void> source_, destination_;
  size_t bytes_ = 0;
};

} // namespace xs::bench

#endif // XSTITCH_BENCH_CUDACOPYFLOOR_H
