#ifndef XSTITCH_RUNTIME_GPU_GPUCONTEXT_H
#define XSTITCH_RUNTIME_GPU_GPUCONTEXT_H

// One GPU as the GPU devices (cuda:N, hip:N) use it: the vendor's driver
// (GpuDriver.h), the GPU's primary context (retained for the life of this
// object, shared with every other user of the GPU in the process, as the
// CUDA and HIP runtimes share it), the GPU's attributes, caching allocators
// of device memory and of pinned host memory, a pool of streams, the vendor's
// BLAS for library steps, and the memory of runs still queued on a stream
// (releaseAfter). Calls from any thread make the context current first;
// everything here is thread-safe.

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/CachingAllocator.h"
#include "runtime/gpu/GpuDriver.h"

namespace xs::gpu {

struct GpuContextOptions {
  /// Free device blocks kept for reuse at most.
  int64_t maxCachedBytes = int64_t{8} << 30;
  /// Free pinned host blocks kept for reuse at most (page-locked memory is
  /// the whole machine's to share).
  int64_t maxCachedPinnedBytes = int64_t{1} << 30;
  /// Reset the GPU's primary context before retaining it
  /// (cuDevicePrimaryCtxReset, hipDeviceReset): a context that a kernel fault made unusable
  /// is replaced, for every user of it in the process (their memory in it
  /// is lost with it, as after any such fault).
  bool resetPrimaryContext = false;
  /// Waits for each kernel launch to finish before the next step, so a
  /// kernel that faults is named in the error (`--sync-launches`,
  /// XSTITCH_SYNC_LAUNCHES=1): a debugging mode, slower.
  bool syncLaunches = false;
};

class GpuContext : public std::enable_shared_from_this<GpuContext> {
public:
  /// Retains GPU `ordinal`'s primary context. An ordinal without a GPU is an
  /// InvalidArgument error naming the GPUs there are.
  static absl::StatusOr<std::shared_ptr<GpuContext>> create(std::shared_ptr<const GpuDriver> driver,
                                                            int ordinal,
                                                            const GpuContextOptions &options = {});
  ~GpuContext();
  GpuContext(const GpuContext &) = delete;
  GpuContext &operator=(const GpuContext &) = delete;

  const GpuDriver &driver() const { return *driver_; }
  const GpuDeviceInfo &info() const { return info_; }
  bool syncLaunches() const { return syncLaunches_; }
  /// "cuda:0", "hip:1".
  std::string name() const;
  /// The driver's status of `call` (GpuDriver::check), with `what` (a
  /// kernel's name) after the call's name where given. A kernel fault
  /// marks the context faulted: the error says so, and every later run on
  /// it fails at once saying what to do.
  absl::Status check(GpuCall call, std::string_view what = {}) const;
  /// OK, or the error of the kernel fault that left the context unusable.
  absl::Status faultStatus() const;
  bool faulted() const { return faulted_.load(std::memory_order_acquire); }
  /// Makes the primary context current on the calling thread for the life
  /// of the returned scope, which then gives the thread back the context
  /// that was current before (the caller's, a framework's own).
  class CurrentScope {
  public:
    CurrentScope(CurrentScope &&other) noexcept
        : driver_(other.driver_), previous_(other.previous_), restore_(other.restore_) {
      other.restore_ = false;
    }
    CurrentScope(const CurrentScope &) = delete;
    CurrentScope &operator=(const CurrentScope &) = delete;
    CurrentScope &operator=(CurrentScope &&) = delete;
    ~CurrentScope() {
      if (restore_)
        (void)driver_->setCurrentContext(previous_);
    }

  private:
    friend class GpuContext;
    CurrentScope(const GpuDriver *driver, ContextHandle previous, bool restore)
        : driver_(driver), previous_(previous), restore_(restore) {}
    const GpuDriver *driver_;
    ContextHandle previous_;
    bool restore_;
  };
  absl::StatusOr<CurrentScope> makeCurrent() const;

  /// Device memory: blocks hold device addresses (DevicePointer) as void*.
  const std::shared_ptr<CachingAllocator> &deviceMemory() const { return deviceMemory_; }
  /// Pinned host memory (GpuDriver::allocatePinned): results copied back, staging of
  /// what a run uploads (its argument table), so copies run asynchronously.
  const std::shared_ptr<CachingAllocator> &hostMemory() const { return hostMemory_; }

  /// The vendor's BLAS on this GPU (GpuDriver::createMatmul), created at
  /// the first call; where the library is not installed, the error
  /// (FailedPrecondition) that says so, at every call.
  absl::StatusOr<GpuMatmul *> matmul();

  /// Keeps `blocks` (device or host memory that work queued on `stream`
  /// reads or writes) from reuse until the stream has passed this point:
  /// a run that returns before its stream is done hands its memory here.
  /// An event recorded on the stream marks the point; when more than
  /// kMaxPendingReleases are pending, the oldest is waited for, so memory
  /// stays bounded however far the host runs ahead.
  absl::Status releaseAfter(StreamHandle stream, std::vector<std::shared_ptr<void>> blocks);
  /// Returns to the allocators the blocks of every release whose stream has
  /// passed it (runs call this before they allocate).
  void reapReleases();
  static constexpr size_t kMaxPendingReleases = 256;

  /// A stream of the pool (created on first need); give it back with
  /// releaseStream once the work queued on it is done.
  absl::StatusOr<StreamHandle> acquireStream();
  void releaseStream(StreamHandle stream);

private:
  GpuContext(std::shared_ptr<const GpuDriver> driver, GpuDeviceInfo info)
      : driver_(std::move(driver)), info_(std::move(info)) {}

  std::shared_ptr<const GpuDriver> driver_;
  GpuDeviceInfo info_;
  ContextHandle context_ = nullptr; // both vendors' handles are non-null
  bool syncLaunches_ = false;
  mutable std::atomic<bool> faulted_{false};
  mutable std::mutex faultMutex_;
  mutable std::string fault_; // the first kernel fault's message
  std::shared_ptr<CachingAllocator> deviceMemory_;
  std::shared_ptr<CachingAllocator> hostMemory_;
  std::mutex streamsMutex_;
  std::vector<StreamHandle> idleStreams_;
  std::vector<StreamHandle> allStreams_;
  std::once_flag matmulOnce_;
  absl::StatusOr<std::unique_ptr<GpuMatmul>> matmul_ = nullptr;
  struct PendingRelease {
    EventHandle event;
    std::vector<std::shared_ptr<void>> blocks;
  };
  std::mutex releasesMutex_;
  std::deque<PendingRelease> releases_;
  std::vector<EventHandle> idleEvents_;
};

/// A stream of a context's pool for the life of one scope: synchronizes and
/// returns it when the scope ends, so that device blocks released after it
/// are never still in use by queued work. A borrowed stream (the caller's)
/// is synchronized the same way and left to its owner, unless the work
/// queued on it was left queued (leaveQueued: its memory then went to
/// GpuContext::releaseAfter).
class PooledStream {
public:
  static absl::StatusOr<PooledStream> acquire(GpuContext &context);
  static PooledStream borrow(GpuContext &context, StreamHandle stream);
  PooledStream(PooledStream &&other) noexcept
      : context_(other.context_), stream_(other.stream_), borrowed_(other.borrowed_),
        queued_(other.queued_) {
    other.context_ = nullptr;
  }
  PooledStream &operator=(PooledStream &&) = delete;
  ~PooledStream();
  StreamHandle get() const { return stream_; }
  bool borrowed() const { return borrowed_; }
  /// The scope ends without waiting for a borrowed stream.
  void leaveQueued() { queued_ = true; }
  /// Waits for the work queued so far; the error is the driver's.
  absl::Status synchronize() const;

private:
  PooledStream(GpuContext &context, StreamHandle stream) : context_(&context), stream_(stream) {}
  GpuContext *context_;
  StreamHandle stream_;
  bool borrowed_ = false;
  bool queued_ = false;
};

} // namespace xs::gpu

#endif // XSTITCH_RUNTIME_GPU_GPUCONTEXT_H
