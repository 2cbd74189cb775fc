#ifndef XSTITCH_IR_BYTESTREAM_H
#define XSTITCH_IR_BYTESTREAM_H

// Little binary streams for files xstitch writes and reads back (compile-
// cache entries and AOT bundles): unsigned LEB128 integers, zigzag for
// signed ones, length-prefixed strings. A reader never reads past its bytes:
// running out, or a length that does not fit, is an error that says what was
// being read, so a truncated or corrupt file is an error, never a crash.

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace xs {

class ByteWriter {
public:
  void u64(uint64_t v);
  void i64(int64_t v);
  void boolean(bool v) { u64(v ? 1 : 0); }
  void string(std::string_view s);
  /// Bytes without a length (the reader must know how many).
  void raw(const void *data, size_t size);
  /// Zero bytes up to the next multiple of `alignment` from the start: a
  /// reader that aligns the same way finds what follows at an aligned
  /// offset (constants a mapped file's readers use in place).
  void align(size_t alignment);

  void reserve(size_t bytes) { bytes_.reserve(bytes); }
  /// Overwrites bytes already written (a preamble patched at the end).
  void overwrite(size_t at, const void *data, size_t size);

  const std::string &bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

private:
  std::string bytes_;
};

class ByteReader {
public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  absl::StatusOr<uint64_t> u64(std::string_view what);
  absl::StatusOr<int64_t> i64(std::string_view what);
  absl::StatusOr<bool> boolean(std::string_view what);
  /// A count of things each taking at least `minBytesEach` bytes: larger
  /// than what is left to read is an error (a corrupt count does not make
  /// the reader reserve gigabytes).
  absl::StatusOr<size_t> count(std::string_view what, size_t minBytesEach = 1);
  /// A string_view into the reader's bytes.
  absl::StatusOr<std::string_view> string(std::string_view what);
  absl::StatusOr<std::string_view> raw(size_t size, std::string_view what);
  /// Skips ByteWriter::align's padding.
  absl::Status align(size_t alignment, std::string_view what);

  size_t remaining() const { return bytes_.size() - offset_; }
  bool atEnd() const { return offset_ == bytes_.size(); }

private:
  absl::Status truncated(std::string_view what) const;
  std::string_view bytes_;
  size_t offset_ = 0;
};

} // namespace xs

#endif // XSTITCH_IR_BYTESTREAM_H
