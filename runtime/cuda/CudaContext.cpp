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

} // namespace

absl::StatusOr<std::shared_ptr<CudaContext>>
CudaContext::create(const CudaDriver &driver, int ordinal, const CudaContextOptions &options) {
  XS_ASSIGN_OR_RETURN(CudaDeviceInfo info, driver.deviceInfo(ordinal));
  std::shared_ptr<CudaContext> context(new CudaContext(driver, std::move(info)));
  XS_RETURN_IF_ERROR(driver.check(driver.cuDeviceGet(&context->device_, ordinal), "cuDeviceGet"));
  XS_RETURN_IF_ERROR(
      driver.check(driver.cuDevicePrimaryCtxRetain(&context->context_, context->device_),
                   "cuDevicePrimaryCtxRetain"));
  context->syncLaunches_ = options.syncLaunches;
  CachingAllocatorOptions memory;
  memory.maxCachedBytes = options.maxCachedBytes;
  context->deviceMemory_ = CachingAllocator::create(
      memory, std::make_shared<DeviceMemorySource>(driver, context->context_));
  context->hostMemory_ = CachingAllocator::create();
  return context;
}

CudaContext::~CudaContext() {
  if (context_ == nullptr)
    return;
  if (driver_.cuCtxSetCurrent(context_) == 0)
    for (CUstream stream : allStreams_)
      (void)driver_.cuStreamDestroy(stream);
  if (deviceMemory_)
    deviceMemory_->releaseCached();
  (void)driver_.cuDevicePrimaryCtxRelease(device_);
}

std::string CudaContext::name() const { return strCat("cuda:", info_.ordinal); }

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
  // reported by whoever queued the work.
  (void)context_->driver().cuStreamSynchronize(stream_);
  if (!borrowed_)
    context_->releaseStream(stream_);
}

absl::Status PooledStream::synchronize() const {
  return context_->check(context_->driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

} // namespace xs::cuda
