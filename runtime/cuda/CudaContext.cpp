#include "runtime/cuda/CudaContext.h"

#include "ir/Diagnostics.h"

namespace xs::cuda {

namespace {

/// Device memory from cuMemAlloc (256-byte aligned, more than the caching
/// allocator's kAlignment). The driver's entry points need the context
/// current on the calling thread, which may be any thread releasing a block.
class DeviceMemorySource : public MemorySource {
public:
  DeviceMemorySource(const CudaDriver &driver, CUcontext context)
      : driver_(driver), context_(context) {}

  void *allocate(int64_t bytes) override {
    CUdeviceptr pointer = 0;
    if (driver_.cuCtxSetCurrent(context_) != 0 ||
        driver_.cuMemAlloc(&pointer, static_cast<size_t>(bytes)) != 0)
      return nullptr;
    return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
  }
  void free(void *block) override {
    // A failure here leaves nothing to recover: the context is gone.
    if (driver_.cuCtxSetCurrent(context_) == 0)
      (void)driver_.cuMemFree(static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(block)));
  }

private:
  const CudaDriver &driver_;
  CUcontext context_;
};

/// Page-locked host memory (cuMemHostAlloc), which the GPU's copy engines
/// read and write while the host goes on: copies from and to it are
/// asynchronous, where pageable memory is staged through the driver's own
/// buffers first.
class PinnedMemorySource : public MemorySource {
public:
  PinnedMemorySource(const CudaDriver &driver, CUcontext context)
      : driver_(driver), context_(context) {}

  void *allocate(int64_t bytes) override {
    void *pointer = nullptr;
    if (driver_.cuCtxSetCurrent(context_) != 0 ||
        driver_.cuMemHostAlloc(&pointer, static_cast<size_t>(bytes), 0) != 0)
      return nullptr;
    return pointer;
  }
  void free(void *block) override {
    if (driver_.cuCtxSetCurrent(context_) == 0)
      (void)driver_.cuMemFreeHost(block);
  }

private:
  const CudaDriver &driver_;
  CUcontext context_;
};

// CUevent_flags and CUresult values (cuda.h).
constexpr unsigned kEventDisableTiming = 2;
constexpr CUresult kNotReady = 600;

} // namespace

absl::StatusOr<std::shared_ptr<CudaContext>>
CudaContext::create(const CudaDriver &driver, int ordinal, const CudaContextOptions &options) {
  XS_ASSIGN_OR_RETURN(CudaDeviceInfo info, driver.deviceInfo(ordinal));
  std::shared_ptr<CudaContext> context(new CudaContext(driver, std::move(info)));
  XS_RETURN_IF_ERROR(driver.check(driver.cuDeviceGet(&context->device_, ordinal), "cuDeviceGet"));
  if (options.resetPrimaryContext)
    XS_RETURN_IF_ERROR(
        driver.check(driver.cuDevicePrimaryCtxReset(context->device_), "cuDevicePrimaryCtxReset"));
  XS_RETURN_IF_ERROR(
      driver.check(driver.cuDevicePrimaryCtxRetain(&context->context_, context->device_),
                   "cuDevicePrimaryCtxRetain"));
  context->syncLaunches_ = options.syncLaunches;
  context->findCublasLt_ = options.findCublasLt;
  CachingAllocatorOptions memory;
  memory.maxCachedBytes = options.maxCachedBytes;
  context->deviceMemory_ = CachingAllocator::create(
      memory, std::make_shared<DeviceMemorySource>(driver, context->context_));
  CachingAllocatorOptions pinned;
  pinned.maxCachedBytes = options.maxCachedPinnedBytes;
  context->hostMemory_ = CachingAllocator::create(
      pinned, std::make_shared<PinnedMemorySource>(driver, context->context_));
  return context;
}

CudaContext::~CudaContext() {
  if (context_ == nullptr)
    return;
  if (driver_.cuCtxSetCurrent(context_) == 0) {
    // Runs left queued finish before their memory and the streams go.
    for (PendingRelease &release : releases_) {
      (void)driver_.cuEventSynchronize(release.event);
      (void)driver_.cuEventDestroy(release.event);
    }
    releases_.clear();
    for (CUevent event : idleEvents_)
      (void)driver_.cuEventDestroy(event);
    for (CUstream stream : allStreams_)
      (void)driver_.cuStreamDestroy(stream);
    // cuBLASLt's handle belongs to the context: it goes first.
    matmul_ = nullptr;
  }
  if (deviceMemory_)
    deviceMemory_->releaseCached();
  if (hostMemory_)
    hostMemory_->releaseCached();
  (void)driver_.cuDevicePrimaryCtxRelease(device_);
}

std::string CudaContext::name() const { return strCat("cuda:", info_.ordinal); }

absl::Status CudaContext::check(CUresult result, std::string_view call) const {
  absl::Status status = driver_.check(result, call);
  if (status.ok() || !CudaDriver::isStickyFault(result))
    return status;
  {
    std::lock_guard<std::mutex> lock(faultMutex_);
    if (fault_.empty())
      fault_ = std::string(status.message());
  }
  faulted_.store(true, std::memory_order_release);
  return absl::InternalError(
      strCat(status.message(), ": a kernel fault, which leaves ", name(),
             "'s context unusable; the next compile or load on it starts a fresh context (runs "
             "with --sync-launches, XSTITCH_SYNC_LAUNCHES=1, name the kernel that faulted)"));
}

absl::Status CudaContext::faultStatus() const {
  if (!faulted())
    return absl::OkStatus();
  std::lock_guard<std::mutex> lock(faultMutex_);
  return absl::FailedPreconditionError(
      strCat(name(), " is unusable since a kernel fault (", fault_,
             "): compile or load the function again, which starts a fresh context"));
}

absl::StatusOr<CudaContext::CurrentScope> CudaContext::makeCurrent() const {
  CUcontext previous = nullptr;
  XS_RETURN_IF_ERROR(check(driver_.cuCtxGetCurrent(&previous), "cuCtxGetCurrent"));
  if (previous == context_)
    return CurrentScope(&driver_, previous, /*restore=*/false);
  XS_RETURN_IF_ERROR(check(driver_.cuCtxSetCurrent(context_), "cuCtxSetCurrent"));
  return CurrentScope(&driver_, previous, /*restore=*/true);
}

absl::StatusOr<CUstream> CudaContext::acquireStream() {
  {
    std::lock_guard<std::mutex> lock(streamsMutex_);
    if (!idleStreams_.empty()) {
      CUstream stream = idleStreams_.back();
      idleStreams_.pop_back();
      return stream;
    }
  }
  XS_ASSIGN_OR_RETURN(CurrentScope current, makeCurrent());
  // CU_STREAM_NON_BLOCKING: no implicit synchronization with the legacy
  // default stream other libraries in the process may use.
  constexpr unsigned kNonBlocking = 1;
  CUstream stream = nullptr;
  XS_RETURN_IF_ERROR(check(driver_.cuStreamCreate(&stream, kNonBlocking), "cuStreamCreate"));
  std::lock_guard<std::mutex> lock(streamsMutex_);
  allStreams_.push_back(stream);
  return stream;
}

void CudaContext::releaseStream(CUstream stream) {
  std::lock_guard<std::mutex> lock(streamsMutex_);
  idleStreams_.push_back(stream);
}

absl::StatusOr<CudaMatmul *> CudaContext::matmul() {
  std::call_once(matmulOnce_, [this] {
    absl::StatusOr<const CublasLtLibrary *> library = findCublasLt_();
    if (!library.ok()) {
      matmul_ = library.status();
      return;
    }
    absl::StatusOr<CurrentScope> current = makeCurrent();
    if (!current.ok()) {
      matmul_ = current.status();
      return;
    }
    matmul_ = CudaMatmul::create(**library);
  });
  if (!matmul_.ok())
    return matmul_.status();
  return matmul_->get();
}

absl::Status CudaContext::releaseAfter(CUstream stream, std::vector<std::shared_ptr<void>> blocks) {
  CUevent event = nullptr;
  {
    std::lock_guard<std::mutex> lock(releasesMutex_);
    if (!idleEvents_.empty()) {
      event = idleEvents_.back();
      idleEvents_.pop_back();
    }
  }
  if (event == nullptr)
    XS_RETURN_IF_ERROR(check(driver_.cuEventCreate(&event, kEventDisableTiming), "cuEventCreate"));
  if (absl::Status recorded = check(driver_.cuEventRecord(event, stream), "cuEventRecord");
      !recorded.ok()) {
    // Nothing marks the point: wait for the stream instead.
    (void)driver_.cuEventDestroy(event);
    return check(driver_.cuStreamSynchronize(stream), "cuStreamSynchronize");
  }
  std::vector<PendingRelease> waited;
  {
    std::lock_guard<std::mutex> lock(releasesMutex_);
    releases_.push_back({event, std::move(blocks)});
    while (releases_.size() > kMaxPendingReleases) {
      waited.push_back(std::move(releases_.front()));
      releases_.pop_front();
    }
  }
  for (PendingRelease &release : waited) {
    (void)driver_.cuEventSynchronize(release.event);
    std::lock_guard<std::mutex> lock(releasesMutex_);
    idleEvents_.push_back(release.event);
  }
  return absl::OkStatus();
}

void CudaContext::reapReleases() {
  std::vector<std::shared_ptr<void>> done;
  std::lock_guard<std::mutex> lock(releasesMutex_);
  while (!releases_.empty()) {
    CUresult state = driver_.cuEventQuery(releases_.front().event);
    if (state == kNotReady)
      break;
    // Done, or the context is broken (a faulted kernel): either way
    // nothing more will touch the memory.
    for (std::shared_ptr<void> &block : releases_.front().blocks)
      done.push_back(std::move(block));
    idleEvents_.push_back(releases_.front().event);
    releases_.pop_front();
  }
  // `done` returns its blocks to the allocators after the lock is left:
  // declared before it, destroyed after.
}

absl::StatusOr<PooledStream> PooledStream::acquire(CudaContext &context) {
  XS_ASSIGN_OR_RETURN(CUstream stream, context.acquireStream());
  return PooledStream(context, stream);
}

PooledStream PooledStream::borrow(CudaContext &context, CUstream stream) {
  PooledStream borrowed(context, stream);
  borrowed.borrowed_ = true;
  return borrowed;
}

PooledStream::~PooledStream() {
  if (context_ == nullptr)
    return;
  // Queued work must finish before its memory is reused; an error was
  // reported by whoever queued the work. Work left queued on a caller's
  // stream holds its memory through CudaContext::releaseAfter.
  if (!(borrowed_ && queued_))
    (void)context_->driver().cuStreamSynchronize(stream_);
  if (!borrowed_)
    context_->releaseStream(stream_);
}

absl::Status PooledStream::synchronize() const {
  return context_->check(context_->driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

} // namespace xs::cuda
