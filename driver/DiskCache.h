#ifndef XSTITCH_DRIVER_DISKCACHE_H
#define XSTITCH_DRIVER_DISKCACHE_H

// The persistent compile cache: compiled programs on disk, one file per key
// (`<hash>.xsc`, a runtime/ProgramFile.h of kind "cache"), shared by every
// process of the user, so that a new process loads what an earlier one
// compiled instead of paying for LLVM again.
//
// Safe under many processes: an entry is written to a temporary file and
// renamed into place, so a reader sees a whole entry or none; processes
// compiling the same graph at once each write theirs and one stays. An entry
// that cannot be read (truncated, corrupt, of another format version, of
// another key whose hash collides) is a miss with a warning, never an error.
// After each store the directory is trimmed to its size bound, least recently
// used entries first (a load marks its entry used).

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "runtime/ProgramFile.h"

namespace xs {

inline constexpr int64_t kDefaultCacheMaxBytes = int64_t{2} << 30;

struct DiskCacheOptions {
  /// Where entries live; empty: no persistent cache.
  std::string directory;
  /// The entries' total size bound.
  int64_t maxBytes = kDefaultCacheMaxBytes;
};

/// The directory and bound the environment asks for, for tools and the C
/// API to put in their options (the library itself reads no environment):
/// $XSTITCH_CACHE_DIR ("off": none), else $XDG_CACHE_HOME/xstitch, else
/// $HOME/.cache/xstitch; $XSTITCH_CACHE_MAX_BYTES, else 2 GiB.
DiskCacheOptions diskCacheOptionsFromEnvironment();

/// `--cache-dir=PATH|off` and the C API's option: "off" is no cache, empty
/// the environment's choice.
DiskCacheOptions diskCacheOptionsFor(const std::string &directory, int64_t maxBytes = 0);

/// The entry file for `keyText` in `directory`.
std::string diskCacheEntryPath(const std::string &directory, const std::string &keyText);

/// The entry stored for `keyText`, or nullopt: no entry, or one that cannot
/// be used (then `warning` says why).
std::optional<ProgramFile> loadDiskCacheEntry(const DiskCacheOptions &options,
                                              const std::string &keyText, std::string *warning);

/// Stores `file` for its header's key, then trims the directory. An error
/// (a directory that cannot be created or written) is for a warning: the
/// compiled program is good all the same.
absl::Status storeDiskCacheEntry(const DiskCacheOptions &options, const ProgramFile &file);

} // namespace xs

#endif // XSTITCH_DRIVER_DISKCACHE_H
