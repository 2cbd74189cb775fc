#ifndef XSTITCH_RUNTIME_CACHINGALLOCATOR_H
#define XSTITCH_RUNTIME_CACHINGALLOCATOR_H

// A thread-safe caching allocator. Requests are rounded up to a size class
// (four classes per power of two, so at most 25% is wasted); a freed block
// goes back to its class's free list and serves the next request of that
// class without a system call. Runs that repeat with the same dims therefore
// allocate nothing after the first. The memory comes from a MemorySource:
// aligned host memory by default, device memory for GPU devices (whose
// pointers are device addresses held as void*).

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace xs {

struct CachingAllocatorOptions {
  /// Free blocks kept for reuse at most (bytes); beyond it frees return to
  /// the system.
  int64_t maxCachedBytes = int64_t{4} << 30;
};

/// Where an allocator's blocks come from and go back to. Thread-safe.
class MemorySource {
public:
  virtual ~MemorySource() = default;
  /// `bytes` aligned to CachingAllocator::kAlignment; nullptr when out of
  /// memory.
  virtual void *allocate(int64_t bytes) = 0;
  virtual void free(void *block) = 0;
};

/// Host memory from aligned_alloc.
std::shared_ptr<MemorySource> hostMemorySource();

struct CachingAllocatorStats {
  int64_t allocations = 0; // requests served
  int64_t cacheHits = 0;   // requests served from a free list
  int64_t cachedBytes = 0; // bytes in free lists now
  int64_t liveBytes = 0;   // bytes handed out and not yet returned
};

class CachingAllocator : public std::enable_shared_from_this<CachingAllocator> {
public:
  static constexpr size_t kAlignment = 64;

  static std::shared_ptr<CachingAllocator> create(const CachingAllocatorOptions &options = {});
  static std::shared_ptr<CachingAllocator> create(const CachingAllocatorOptions &options,
                                                  std::shared_ptr<MemorySource> source);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  /// `bytes` (at least 1) of memory aligned to kAlignment, returned to this
  /// allocator's cache when the last owner releases it (the block keeps the
  /// allocator alive). When the source is out of memory, the cached free
  /// blocks go back to it and the request is tried once more; nullptr when
  /// that fails too.
  std::shared_ptr<void> allocate(int64_t bytes);

  /// The size class a request of `bytes` is served from.
  static int64_t sizeClass(int64_t bytes);

  CachingAllocatorStats stats() const;
  /// Returns every cached free block to the system.
  void releaseCached();

private:
  CachingAllocator(const CachingAllocatorOptions &options, std::shared_ptr<MemorySource> source)
      : options_(options), source_(std::move(source)) {}
  void release(void *block, int64_t size);

  CachingAllocatorOptions options_;
  std::shared_ptr<MemorySource> source_;
  mutable std::mutex mutex_;
  std::map<int64_t, std::vector<void *>> freeBlocks_; // size class -> blocks
  CachingAllocatorStats stats_;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_CACHINGALLOCATOR_H
