#include "runtime/gpu/GpuContext.h"

#include "ir/Diagnostics.h"

namespace xs::gpu {

namespace {

/// Device memory from the driver (256-byte aligned on both vendors, more
/// than the caching allocator's kAlignment). The driver's entry points need
/// the context current on the calling thread, which may be any thread
/// releasing a block.
class DeviceMemorySource : public MemorySource {
public:
  DeviceMemorySource(std::shared_ptr<const GpuDriver> driver, ContextHandle context)
      : driver_(std::move(driver)), context_(context) {}

  void *allocate(int64_t bytes) override {
    DevicePointer pointer = 0;
    if (driver_->setCurrentContext(context_).result != 0 ||
        driver_->allocate(static_cast<size_t>(bytes), &pointer).result != 0)
      return nullptr;
    return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
  }
  void free(void *block) override {
    // A failure here leaves nothing to recover: the context is gone.
    if (driver_->setCurrentContext(context_).result == 0)
      (void)driver_->free(static_cast<DevicePointer>(reinterpret_cast<uintptr_t>(block)));
  }

private:
  std::shared_ptr<const GpuDriver> driver_;
  ContextHandle context_;
};

/// Page-locked host memory, which the GPU's copy engines read and write
/// while the host goes on: copies from and to it are asynchronous, where
/// pageable memory is staged through the driver's own buffers first.
class PinnedMemorySource : public MemorySource {
public:
  PinnedMemorySource(std::shared_ptr<const GpuDriver> driver, ContextHandle context)
      : driver_(std::move(driver)), context_(context) {}

  void *allocate(int64_t bytes) override {
    void *pointer = nullptr;
    if (driver_->setCurrentContext(context_).result != 0 ||
        driver_->allocatePinned(static_cast<size_t>(bytes), &pointer).result != 0)
      return nullptr;
    return pointer;
  }
  void free(void *block) override {
    if (driver_->setCurrentContext(context_).result == 0)
      (void)driver_->freePinned(block);
  }

private:
  std::shared_ptr<const GpuDriver> driver_;
  ContextHandle context_;
};

} // namespace

absl::StatusOr<std::shared_ptr<GpuContext>>
GpuContext::create(std::shared_ptr<const GpuDriver> driver, int ordinal,
                   const GpuContextOptions &options) {
  XS_ASSIGN_OR_RETURN(GpuDeviceInfo info, driver->deviceInfo(ordinal));
  std::shared_ptr<GpuContext> context(new GpuContext(driver, std::move(info)));
  XS_RETURN_IF_ERROR(driver->check(
      driver->retainContext(ordinal, options.resetPrimaryContext, &context->context_)));
  context->syncLaunches_ = options.syncLaunches;
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

GpuContext::~GpuContext() {
  if (context_ == nullptr) // never retained
    return;
  const GpuDriver &driver = *driver_;
  if (driver.setCurrentContext(context_).result == 0) {
    // Runs left queued finish before their memory and the streams go.
    for (PendingRelease &release : releases_) {
      (void)driver.synchronizeEvent(release.event);
      (void)driver.destroyEvent(release.event);
    }
    releases_.clear();
    for (EventHandle event : idleEvents_)
      (void)driver.destroyEvent(event);
    for (StreamHandle stream : allStreams_)
      (void)driver.destroyStream(stream);
    // The BLAS library's handle belongs to the context: it goes first.
    matmul_ = nullptr;
  }
  if (deviceMemory_)
    deviceMemory_->releaseCached();
  if (hostMemory_)
    hostMemory_->releaseCached();
  (void)driver.releaseContext(info_.ordinal);
}

std::string GpuContext::name() const { return strCat(driver_->platform(), ":", info_.ordinal); }

absl::Status GpuContext::check(GpuCall call, std::string_view what) const {
  std::string named;
  if (!what.empty()) {
    named = strCat(call.name, " (", what, ")");
    call.name = named;
  }
  absl::Status status = driver_->check(call);
  if (status.ok() || !driver_->isStickyFault(call.result))
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

absl::Status GpuContext::faultStatus() const {
  if (!faulted())
    return absl::OkStatus();
  std::lock_guard<std::mutex> lock(faultMutex_);
  return absl::FailedPreconditionError(
      strCat(name(), " is unusable since a kernel fault (", fault_,
             "): compile or load the function again, which starts a fresh context"));
}

absl::StatusOr<GpuContext::CurrentScope> GpuContext::makeCurrent() const {
  ContextHandle previous = nullptr;
  XS_RETURN_IF_ERROR(check(driver_->currentContext(&previous)));
  if (previous == context_)
    return CurrentScope(driver_.get(), previous, /*restore=*/false);
  XS_RETURN_IF_ERROR(check(driver_->setCurrentContext(context_)));
  return CurrentScope(driver_.get(), previous, /*restore=*/true);
}

absl::StatusOr<StreamHandle> GpuContext::acquireStream() {
  {
    std::lock_guard<std::mutex> lock(streamsMutex_);
    if (!idleStreams_.empty()) {
      StreamHandle stream = idleStreams_.back();
      idleStreams_.pop_back();
      return stream;
    }
  }
  XS_ASSIGN_OR_RETURN(CurrentScope current, makeCurrent());
  StreamHandle stream = nullptr;
  XS_RETURN_IF_ERROR(check(driver_->createStream(&stream)));
  std::lock_guard<std::mutex> lock(streamsMutex_);
  allStreams_.push_back(stream);
  return stream;
}

void GpuContext::releaseStream(StreamHandle stream) {
  std::lock_guard<std::mutex> lock(streamsMutex_);
  idleStreams_.push_back(stream);
}

absl::StatusOr<GpuMatmul *> GpuContext::matmul() {
  std::call_once(matmulOnce_, [this] {
    absl::StatusOr<CurrentScope> current = makeCurrent();
    if (!current.ok()) {
      matmul_ = current.status();
      return;
    }
    matmul_ = driver_->createMatmul();
  });
  if (!matmul_.ok())
    return matmul_.status();
  return matmul_->get();
}

absl::Status GpuContext::releaseAfter(StreamHandle stream,
                                      std::vector<std::shared_ptr<void>> blocks) {
  EventHandle event = nullptr;
  {
    std::lock_guard<std::mutex> lock(releasesMutex_);
    if (!idleEvents_.empty()) {
      event = idleEvents_.back();
      idleEvents_.pop_back();
    }
  }
  if (event == nullptr)
    XS_RETURN_IF_ERROR(check(driver_->createEvent(/*timing=*/false, &event)));
  if (absl::Status recorded = check(driver_->recordEvent(event, stream)); !recorded.ok()) {
    // Nothing marks the point: wait for the stream instead.
    (void)driver_->destroyEvent(event);
    return check(driver_->synchronizeStream(stream));
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
    (void)driver_->synchronizeEvent(release.event);
    std::lock_guard<std::mutex> lock(releasesMutex_);
    idleEvents_.push_back(release.event);
  }
  return absl::OkStatus();
}

void GpuContext::reapReleases() {
  std::vector<std::shared_ptr<void>> done;
  std::lock_guard<std::mutex> lock(releasesMutex_);
  while (!releases_.empty()) {
    if (driver_->isNotReady(driver_->queryEvent(releases_.front().event).result))
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

absl::StatusOr<PooledStream> PooledStream::acquire(GpuContext &context) {
  XS_ASSIGN_OR_RETURN(StreamHandle stream, context.acquireStream());
  return PooledStream(context, stream);
}

PooledStream PooledStream::borrow(GpuContext &context, StreamHandle stream) {
  PooledStream borrowed(context, stream);
  borrowed.borrowed_ = true;
  return borrowed;
}

PooledStream::~PooledStream() {
  if (context_ == nullptr)
    return;
  // Queued work must finish before its memory is reused; an error was
  // reported by whoever queued the work. Work left queued on a caller's
  // stream holds its memory through GpuContext::releaseAfter.
  if (!(borrowed_ && queued_))
    (void)context_->driver().synchronizeStream(stream_);
  if (!borrowed_)
    context_->releaseStream(stream_);
}

absl::Status PooledStream::synchronize() const {
  return context_->check(context_->driver().synchronizeStream(stream_));
}

} // namespace xs::gpu
