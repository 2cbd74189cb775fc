#ifndef XSTITCH_RUNTIME_PROGRAMFILE_H
#define XSTITCH_RUNTIME_PROGRAMFILE_H

// The file a compiled program is kept in: an AOT bundle (xstitch-compile's
// `.xsb`) or a persistent compile-cache entry. Layout:
//
//   8 bytes   magic "XSTITCH\0"
//   4 bytes   format version, little-endian (kProgramFileVersion)
//   8 bytes   payload size, little-endian
//   8 bytes   hashBytes64 of the payload, little-endian
//   36 bytes  zero (the payload starts 64 bytes in)
//   payload   the header's fields (ByteStream strings), then the program
//             (ir/HostPlanSerialization.h), its constants 64-byte aligned
//
// Files are mapped, not read: a program's weights are used in place.
//
// A file that is not one, of another format version, truncated, or whose
// checksum does not match is an error that says which, before anything of
// its program is read.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"

namespace xs {

/// Bumped whenever the payload's layout changes; files of other versions
/// are refused (a cache entry of another version is a miss).
inline constexpr uint32_t kProgramFileVersion = 5;

struct ProgramFileHeader {
  std::string kind;     // "bundle" or "cache"
  std::string producer; // the xstitch (and LLVM) version that wrote it
  std::string device;   // what the code is for: "cpu", "sm_90", "nvptx-sim:sm_80"
  std::string cpu;      // x86 code: the LLVM CPU it was generated for
  std::string features; // x86 code: the LLVM features it assumes ("+avx2,+fma,...")
  std::string key;      // cache entries: the full key text (a hash collision is a miss)
  std::string source;   // bundles: the model it was compiled from, for messages
  /// The names callers know the inputs and outputs by (an ONNX graph's, or
  /// the function's parameters and results), one per parameter and result.
  std::vector<std::string> inputNames, outputNames;
  /// x86 code: it runs with subnormal floats flushed to zero (the CPU
  /// device's float mode it was compiled for).
  bool flushDenormals = true;
};

struct ProgramFile {
  ProgramFileHeader header;
  CompiledProgram program;
};

/// The file's bytes.
std::string encodeProgramFile(const ProgramFile &file);

/// Reads a file's bytes; `name` (a path) goes into messages. Errors:
/// InvalidArgument for a file that is not a program file or of another
/// format version, DataLoss for a truncated or corrupt one. With `owner`
/// (what keeps `bytes` alive), constants are used in place, not copied.
absl::StatusOr<ProgramFile> decodeProgramFile(std::string_view bytes, std::string_view name,
                                              std::shared_ptr<const void> owner = nullptr);

/// A whole file, mapped read-only; `owner` unmaps it when the last user is
/// gone. Files are replaced by rename, never written in place, so a mapping
/// keeps seeing the file it mapped. A missing file is NotFound.
struct FileBytes {
  std::string_view bytes;
  std::shared_ptr<const void> owner;
};
absl::StatusOr<FileBytes> mapWholeFile(const std::string &path);

/// Writes a temporary file next to `path` and renames it over `path`, so
/// that readers in other processes see the old file or the new one, never a
/// part.
absl::Status writeFileAtomically(const std::string &path, std::string_view bytes);

} // namespace xs

#endif // XSTITCH_RUNTIME_PROGRAMFILE_H
