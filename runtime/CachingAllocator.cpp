#include "runtime/CachingAllocator.h"

#include <bit>
#include <cstdlib>

namespace xs {

namespace {

class HostMemorySource : public MemorySource {
public:
  void *allocate(int64_t bytes) override {
    return std::aligned_alloc(CachingAllocator::kAlignment, static_cast<size_t>(bytes));
  }
  void free(void *block) override { std::free(block); }
};

} // namespace

std::shared_ptr<MemorySource> hostMemorySource() {
  static std::shared_ptr<MemorySource> *source =
      new std::shared_ptr<MemorySource>(std::make_shared<HostMemorySource>());
  return *source;
}

std::shared_ptr<CachingAllocator> CachingAllocator::create(const CachingAllocatorOptions &options) {
  return create(options, hostMemorySource());
}

std::shared_ptr<CachingAllocator> CachingAllocator::create(const CachingAllocatorOptions &options,
                                                           std::shared_ptr<MemorySource> source) {
  return std::shared_ptr<CachingAllocator>(new CachingAllocator(options, std::move(source)));
}

CachingAllocator::~CachingAllocator() { releaseCached(); }

int64_t CachingAllocator::sizeClass(int64_t bytes) {
  constexpr int64_t kMinimum = static_cast<int64_t>(kAlignment);
  if (bytes <= kMinimum * 4)
    return bytes <= kMinimum ? kMinimum : (bytes + kMinimum - 1) / kMinimum * kMinimum;
  // Four classes between consecutive powers of two: p, 1.25p, 1.5p, 1.75p.
  uint64_t power = std::bit_floor(static_cast<uint64_t>(bytes));
  int64_t step = static_cast<int64_t>(power / 4);
  return (bytes + step - 1) / step * step;
}

std::shared_ptr<void> CachingAllocator::allocate(int64_t bytes) {
  int64_t size = sizeClass(bytes < 1 ? 1 : bytes);
  void *block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.allocations;
    auto it = freeBlocks_.find(size);
    if (it != freeBlocks_.end() && !it->second.empty()) {
      block = it->second.back();
      it->second.pop_back();
      ++stats_.cacheHits;
      stats_.cachedBytes -= size;
    }
    stats_.liveBytes += size;
  }
  if (block == nullptr) {
    block = source_->allocate(size);
    if (block == nullptr) {
      // Out of memory: the free blocks this allocator keeps (of other size
      // classes) go back to the source, and the request is tried again.
      releaseCached();
      block = source_->allocate(size);
    }
    if (block == nullptr) {
      std::lock_guard<std::mutex> lock(mutex_);
      stats_.liveBytes -= size;
      return nullptr;
    }
  }
  std::shared_ptr<CachingAllocator> self = shared_from_this();
  return std::shared_ptr<void>(block, [self, size](void *p) { self->release(p, size); });
}

void CachingAllocator::release(void *block, int64_t size) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.liveBytes -= size;
    if (stats_.cachedBytes + size <= options_.maxCachedBytes) {
      freeBlocks_[size].push_back(block);
      stats_.cachedBytes += size;
      return;
    }
  }
  source_->free(block);
}

CachingAllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingAllocator::releaseCached() {
  std::map<int64_t, std::vector<void *>> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks.swap(freeBlocks_);
    stats_.cachedBytes = 0;
  }
  for (auto &[size, list] : blocks)
    for (void *block : list)
      source_->free(block);
}

} // namespace xs
