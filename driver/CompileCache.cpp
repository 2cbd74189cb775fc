#include "driver/CompileCache.h"

#include <atomic>

namespace xs {
namespace {

std::atomic<int64_t> &counter(CompileEvent event) {
  static std::atomic<int64_t> counts[4];
  return counts[static_cast<size_t>(event)];
}

} // namespace

void countCompileEvent(CompileEvent event) {
  counter(event).fetch_add(1, std::memory_order_relaxed);
}

CompilerCounters compilerCounters() {
  CompilerCounters c;
  c.compilations = counter(CompileEvent::Compilation).load(std::memory_order_relaxed);
  c.cacheHits = counter(CompileEvent::MemoryHit).load(std::memory_order_relaxed);
  c.diskLoads = counter(CompileEvent::DiskLoad).load(std::memory_order_relaxed);
  c.bundleLoads = counter(CompileEvent::BundleLoad).load(std::memory_order_relaxed);
  return c;
}

uint64_t stableHash64(std::string_view text) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

absl::StatusOr<std::shared_ptr<Executable>>
CompileCache::getOrCompile(const std::string &keyText, const CompileFn &compile, bool *hit) {
  const uint64_t hash = stableHash64(keyText);
  std::promise<Result> promise;
  bool owner = false;
  std::shared_future<Result> future;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(hash);
    if (it != entries_.end() && it->second.keyText == keyText) {
      future = it->second.result;
    } else {
      // A new key, or a collision: the newer key takes the slot.
      owner = true;
      future = promise.get_future().share();
      entries_[hash] = Entry{keyText, future};
      insertionOrder_.push_back(hash);
      while (entries_.size() > capacity_ && !insertionOrder_.empty()) {
        uint64_t oldest = insertionOrder_.front();
        insertionOrder_.pop_front();
        if (oldest != hash)
          entries_.erase(oldest);
      }
      if (insertionOrder_.size() > 4 * capacity_ + 16) // drop hashes erased on failure
        std::erase_if(insertionOrder_, [&](uint64_t h) { return !entries_.contains(h); });
    }
  }
  if (hit)
    *hit = !owner;
  if (!owner)
    return future.get();

  Result result = compile();
  promise.set_value(result);
  if (!result.ok()) {
    // Failures are not cached: the next caller tries again (and sees the
    // same error unless the cause was transient).
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(hash);
    if (it != entries_.end() && it->second.keyText == keyText)
      entries_.erase(it);
  }
  return result;
}

size_t CompileCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

} // namespace xs
