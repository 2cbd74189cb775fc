#include "driver/DiskCache.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "driver/CompileCache.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEntrySuffix = ".xsc";
/// Temporary files older than this belong to a process that died writing.
constexpr auto kStaleTemporary = std::chrono::hours(1);

std::string environment(const char *name) {
  const char *value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

/// Removes the least recently used entries until the rest fit `maxBytes`;
/// `keep` (the entry just written) goes last.
void trim(const DiskCacheOptions &options, const std::string &keep) {
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uintmax_t bytes;
  };
  std::vector<Entry> entries;
  uintmax_t total = 0;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (const fs::directory_entry &e : fs::directory_iterator(options.directory, ec)) {
    std::error_code entryError;
    std::string name = e.path().filename().string();
    fs::file_time_type used = e.last_write_time(entryError);
    if (entryError)
      continue;
    if (name.find(".tmp.") != std::string::npos) {
      if (now - used > kStaleTemporary)
        fs::remove(e.path(), entryError);
      continue;
    }
    if (name.size() <= kEntrySuffix.size() ||
        name.compare(name.size() - kEntrySuffix.size(), kEntrySuffix.size(), kEntrySuffix) != 0)
      continue;
    uintmax_t bytes = e.file_size(entryError);
    if (entryError)
      continue;
    entries.push_back({e.path(), used, bytes});
    total += bytes;
  }
  std::sort(entries.begin(), entries.end(), [&](const Entry &a, const Entry &b) {
    bool aKept = a.path == keep, bKept = b.path == keep;
    if (aKept != bKept)
      return bKept;
    return a.used < b.used;
  });
  for (const Entry &e : entries) {
    if (total <= static_cast<uintmax_t>(std::max<int64_t>(options.maxBytes, 0)))
      break;
    std::error_code removeError;
    fs::remove(e.path, removeError); // another process may have removed it first
    total -= e.bytes;
  }
}

} // namespace

DiskCacheOptions diskCacheOptionsFromEnvironment() {
  DiskCacheOptions options;
  std::string dir = environment("XSTITCH_CACHE_DIR");
  if (dir == "off") {
    options.directory.clear();
  } else if (!dir.empty()) {
    options.directory = dir;
  } else if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) {
    options.directory = xdg + "/xstitch";
  } else if (std::string home = environment("HOME"); !home.empty()) {
    options.directory = home + "/.cache/xstitch";
  }
  int64_t maxBytes = 0;
  if (absl::SimpleAtoi(environment("XSTITCH_CACHE_MAX_BYTES"), &maxBytes) && maxBytes >= 0)
    options.maxBytes = maxBytes;
  return options;
}

DiskCacheOptions diskCacheOptionsFor(const std::string &directory, int64_t maxBytes) {
  DiskCacheOptions options = diskCacheOptionsFromEnvironment();
  if (directory == "off")
    options.directory.clear();
  else if (!directory.empty())
    options.directory = directory;
  if (maxBytes > 0)
    options.maxBytes = maxBytes;
  return options;
}

std::string diskCacheEntryPath(const std::string &directory, const std::string &keyText) {
  return absl::StrFormat("%s/%016x%s", directory, stableHash64(keyText), kEntrySuffix);
}

std::optional<ProgramFile> loadDiskCacheEntry(const DiskCacheOptions &options,
                                              const std::string &keyText, std::string *warning) {
  if (options.directory.empty())
    return std::nullopt;
  std::string path = diskCacheEntryPath(options.directory, keyText);
  absl::StatusOr<FileBytes> bytes = mapWholeFile(path);
  if (!bytes.ok()) {
    if (bytes.status().code() != absl::StatusCode::kNotFound && warning)
      *warning = strCat("compile cache: ", bytes.status().message(), "; compiling instead");
    return std::nullopt;
  }
  absl::StatusOr<ProgramFile> file = decodeProgramFile(bytes->bytes, path, bytes->owner);
  if (!file.ok() || file->header.kind != "cache" || file->header.key != keyText) {
    if (warning)
      *warning = strCat("compile cache: ",
                        file.ok() ? strCat(path, ": an entry of another graph or kind")
                                  : std::string(file.status().message()),
                        "; compiling instead");
    return std::nullopt;
  }
  // Marks the entry used for the eviction order (mtime, not atime: atime is
  // often not kept).
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return *std::move(file);
}

absl::Status storeDiskCacheEntry(const DiskCacheOptions &options, const ProgramFile &file) {
  if (options.directory.empty())
    return absl::OkStatus();
  std::error_code ec;
  fs::create_directories(options.directory, ec);
  if (ec)
    return absl::PermissionDeniedError(
        strCat("compile cache: cannot create ", options.directory, ": ", ec.message()));
  std::string path = diskCacheEntryPath(options.directory, file.header.key);
  absl::Status written = writeFileAtomically(path, encodeProgramFile(file));
  if (!written.ok())
    return absl::Status(written.code(), strCat("compile cache: ", written.message()));
  trim(options, path);
  return absl::OkStatus();
}

} // namespace xs
