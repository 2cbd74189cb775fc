#include "ir/ByteStream.h"

#include "ir/Diagnostics.h"

namespace xs {

void ByteWriter::u64(uint64_t v) {
  while (v >= 0x80) {
    bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes_.push_back(static_cast<char>(v));
}

void ByteWriter::i64(int64_t v) {
  // Zigzag: small negative numbers stay short.
  u64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

void ByteWriter::string(std::string_view s) {
  u64(s.size());
  bytes_.append(s);
}

void ByteWriter::raw(const void *data, size_t size) {
  bytes_.append(static_cast<const char *>(data), size);
}

void ByteWriter::overwrite(size_t at, const void *data, size_t size) {
  bytes_.replace(at, size, static_cast<const char *>(data), size);
}

void ByteWriter::align(size_t alignment) {
  while (bytes_.size() % alignment != 0)
    bytes_.push_back('\0');
}

absl::Status ByteReader::align(size_t alignment, std::string_view what) {
  size_t padding = (alignment - offset_ % alignment) % alignment;
  XS_ASSIGN_OR_RETURN(std::string_view skipped, raw(padding, what));
  (void)skipped;
  return absl::OkStatus();
}

absl::Status ByteReader::truncated(std::string_view what) const {
  return absl::DataLossError(
      strCat("the data ends early: reading ", what, " at byte ", offset_, " of ", bytes_.size()));
}

absl::StatusOr<uint64_t> ByteReader::u64(std::string_view what) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (offset_ >= bytes_.size())
      return truncated(what);
    uint8_t byte = static_cast<uint8_t>(bytes_[offset_++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return v;
  }
  return absl::DataLossError(strCat("malformed integer: reading ", what, " at byte ", offset_));
}

absl::StatusOr<int64_t> ByteReader::i64(std::string_view what) {
  XS_ASSIGN_OR_RETURN(uint64_t z, u64(what));
  return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
}

absl::StatusOr<bool> ByteReader::boolean(std::string_view what) {
  XS_ASSIGN_OR_RETURN(uint64_t v, u64(what));
  if (v > 1)
    return absl::DataLossError(strCat("malformed flag: reading ", what, " at byte ", offset_));
  return v == 1;
}

absl::StatusOr<size_t> ByteReader::count(std::string_view what, size_t minBytesEach) {
  XS_ASSIGN_OR_RETURN(uint64_t n, u64(what));
  if (minBytesEach == 0)
    minBytesEach = 1;
  if (n > remaining() / minBytesEach)
    return absl::DataLossError(strCat("malformed count ", n, ": reading ", what, " at byte ",
                                      offset_, " with ", remaining(), " bytes left"));
  return static_cast<size_t>(n);
}

absl::StatusOr<std::string_view> ByteReader::string(std::string_view what) {
  XS_ASSIGN_OR_RETURN(size_t n, count(what));
  return raw(n, what);
}

absl::StatusOr<std::string_view> ByteReader::raw(size_t size, std::string_view what) {
  if (size > remaining())
    return truncated(what);
  std::string_view out = bytes_.substr(offset_, size);
  offset_ += size;
  return out;
}

} // namespace xs
