#include "bench/GpuCopyFloor.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench/GpuDrivers.h"
#include "ir/Diagnostics.h"

namespace xs::bench {

absl::StatusOr<std::unique_ptr<GpuCopyFloor>> GpuCopyFloor::create(const DeviceSpec &device,
                                                                   size_t bytes) {
  XS_ASSIGN_OR_RETURN(std::shared_ptr<const gpu::GpuDriver> driver, gpuDriverOf(device));
  auto floor = std::make_unique<GpuCopyFloor>();
  XS_ASSIGN_OR_RETURN(floor->context_, gpu::GpuContext::create(driver, device.ordinal));
  floor->bytes_ = bytes;
  floor->source_ = floor->context_->deviceMemory()->allocate(static_cast<int64_t>(bytes));
  floor->destination_ = floor->context_->deviceMemory()->allocate(static_cast<int64_t>(bytes));
  if (!floor->source_ || !floor->destination_)
    return absl::ResourceExhaustedError(
        strCat("cannot allocate 2 x ", bytes, " bytes on ", floor->context_->name()));
  return floor;
}

absl::StatusOr<double> GpuCopyFloor::measure(int iters) {
  gpu::GpuContext &ctx = *context_;
  XS_ASSIGN_OR_RETURN(gpu::GpuContext::CurrentScope current, ctx.makeCurrent());
  XS_ASSIGN_OR_RETURN(gpu::PooledStream stream, gpu::PooledStream::acquire(ctx));
  auto address = [](const std::shared_ptr<void> &block) {
    return static_cast<gpu::DevicePointer>(reinterpret_cast<uintptr_t>(block.get()));
  };
  std::vector<double> seconds;
  for (int i = 0; i < iters + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    XS_RETURN_IF_ERROR(ctx.check(ctx.driver().copyOnDeviceAsync(
        address(destination_), address(source_), bytes_, stream.get())));
    XS_RETURN_IF_ERROR(stream.synchronize());
    if (i > 0) // the first copy warms up
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return 2.0 * static_cast<double>(bytes_) / seconds[seconds.size() / 2];
}

} // namespace xs::bench
