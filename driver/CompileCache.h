#ifndef XSTITCH_DRIVER_COMPILECACHE_H
#define XSTITCH_DRIVER_COMPILECACHE_H

// The in-memory compile cache: loaded Executables keyed by a stable 64-bit
// hash of everything that determines the generated code (canonical IR text,
// device, options, compiler version). The full key text is kept beside each
// entry so that a hash collision is a miss, never a wrong program. Callers
// asking for a key that is being compiled wait for that compilation instead
// of compiling it again; a failed compilation is not cached.

#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "runtime/Executable.h"

namespace xs {

/// FNV-1a, 64 bits: stable across processes and machines, so the same key
/// can name an on-disk entry later.
uint64_t stableHash64(std::string_view text);

/// What the compile driver and the bundle loader did in this process, over
/// every cache (the C API's xs_stats_get).
struct CompilerCounters {
  int64_t compilations = 0; // functions compiled (cache misses and uncached compiles)
  int64_t cacheHits = 0;    // compiles an in-memory cache answered
  int64_t diskLoads = 0;    // compiles the persistent cache answered
  int64_t bundleLoads = 0;  // executables loaded from AOT bundles
};
CompilerCounters compilerCounters();
enum class CompileEvent : uint8_t { Compilation, MemoryHit, DiskLoad, BundleLoad };
void countCompileEvent(CompileEvent event);

class CompileCache {
public:
  /// At most `capacity` entries; beyond it the oldest is dropped (its
  /// Executable lives on while callers hold it), so a long fuzzing run does
  /// not keep every program it ever compiled.
  explicit CompileCache(size_t capacity = 1024) : capacity_(capacity) {}

  using CompileFn = std::function<absl::StatusOr<std::shared_ptr<Executable>>()>;

  /// The cached Executable for `keyText`, or the result of `compile()` (run
  /// by exactly one of the callers asking for a new key at once). `hit` says
  /// whether this call found it compiled or being compiled by another caller.
  absl::StatusOr<std::shared_ptr<Executable>> getOrCompile(const std::string &keyText,
                                                           const CompileFn &compile, bool *hit);

  /// Entries held (for tests).
  size_t size() const;

private:
  using Result = absl::StatusOr<std::shared_ptr<Executable>>;
  struct Entry {
    std::string keyText;
    std::shared_future<Result> result;
  };
  size_t capacity_;
  mutable std::mutex mutex_;
  absl::flat_hash_map<uint64_t, Entry> entries_;
  std::deque<uint64_t> insertionOrder_; // may hold hashes already erased
};

} // namespace xs

#endif // XSTITCH_DRIVER_COMPILECACHE_H
