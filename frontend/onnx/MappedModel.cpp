#include "frontend/onnx/MappedModel.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>

namespace xs {

namespace {

// Field numbers of onnx.proto.
constexpr uint32_t kModelGraph = 7;
constexpr uint32_t kGraphInitializer = 5;
constexpr uint32_t kTensorRawData = 9;

// Protobuf wire types (groups, which onnx.proto does not use, are not walked).
constexpr uint32_t kVarint = 0;
constexpr uint32_t kFixed64 = 1;
constexpr uint32_t kDelimited = 2;
constexpr uint32_t kFixed32 = 5;

/// One field of a serialized message: the bytes of the whole field (its
/// tag included) and, for a delimited one, its payload.
struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  std::string_view whole;
  std::string_view payload;
};

/// Walks the fields of a serialized message; every read is bounds-checked.
class FieldReader {
public:
  explicit FieldReader(std::string_view bytes)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool done() const { return p_ == end_; }

  /// The next field; false where the bytes do not hold one.
  bool next(Field &field) {
    const char *start = p_;
    uint64_t tag = 0;
    if (!varint(tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
      return false;
    field.number = static_cast<uint32_t>(tag >> 3);
    field.wire = static_cast<uint32_t>(tag & 7);
    field.payload = {};
    uint64_t skip = 0;
    switch (field.wire) {
    case kVarint:
      if (uint64_t value = 0; !varint(value))
        return false;
      break;
    case kFixed64:
      skip = 8;
      break;
    case kFixed32:
      skip = 4;
      break;
    case kDelimited:
      if (!varint(skip))
        return false;
      break;
    default:
      return false;
    }
    if (skip > static_cast<uint64_t>(end_ - p_))
      return false;
    if (field.wire == kDelimited)
      field.payload = {p_, static_cast<size_t>(skip)};
    p_ += skip;
    field.whole = {start, static_cast<size_t>(p_ - start)};
    return true;
  }

private:
  bool varint(uint64_t &value) {
    value = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      auto byte = static_cast<uint8_t>(*p_++);
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0)
        return true;
    }
    return false;
  }

  const char *p_;
  const char *end_;
};

/// Splits `message` into the payloads of its fields numbered `wanted`, in
/// order, and the bytes of every other field (appended to `rest`); false
/// where the bytes do not walk or a wanted field is not delimited.
bool splitFields(std::string_view message, uint32_t wanted, std::vector<std::string_view> &payloads,
                 std::string &rest) {
  FieldReader reader(message);
  Field field;
  while (!reader.done()) {
    if (!reader.next(field))
      return false;
    if (field.number != wanted)
      rest.append(field.whole);
    else if (field.wire == kDelimited)
      payloads.push_back(field.payload);
    else
      return false;
  }
  return true;
}

} // namespace

std::optional<MappedModel> walkModelBytes(std::string_view bytes,
                                          std::function<void(std::string_view)> release) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return std::nullopt;
  std::vector<std::string_view> graphs;
  std::string modelRest;
  // A message field given twice is merged by protobuf's parse: left to it.
  if (!splitFields(bytes, kModelGraph, graphs, modelRest) || graphs.size() != 1)
    return std::nullopt;
  std::vector<std::string_view> initializers;
  std::string graphRest;
  if (!splitFields(graphs.front(), kGraphInitializer, initializers, graphRest))
    return std::nullopt;
  MappedModel out;
  if (!out.model.ParseFromString(modelRest))
    return std::nullopt;
  onnx::GraphProto *graph = out.model.mutable_graph();
  if (!graph->ParseFromString(graphRest))
    return std::nullopt;
  out.raw.bytes.reserve(initializers.size());
  for (std::string_view initializer : initializers) {
    std::vector<std::string_view> raw;
    std::string rest;
    if (!splitFields(initializer, kTensorRawData, raw, rest) || raw.size() > 1)
      return std::nullopt;
    onnx::TensorProto *tensor = graph->add_initializer();
    if (raw.size() == 1 && raw.front().size() >= kMappedRawDataBytes) {
      if (!tensor->ParseFromString(rest))
        return std::nullopt;
      tensor->set_raw_data(std::string(1, '\0'));
      out.raw.bytes.emplace_back(raw.front());
    } else {
      if (!tensor->ParseFromArray(initializer.data(), static_cast<int>(initializer.size())))
        return std::nullopt;
      out.raw.bytes.emplace_back(std::nullopt);
    }
  }
  out.raw.release = std::move(release);
  return out;
}

std::optional<MappedModel> readMappedModel(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0) {
    close(fd);
    return std::nullopt;
  }
  auto size = static_cast<size_t>(info.st_size);
  void *bytes = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (bytes == MAP_FAILED)
    return std::nullopt;
  madvise(bytes, size, MADV_SEQUENTIAL);
  std::shared_ptr<const void> mapping(
      bytes, [size](const void *p) { munmap(const_cast<void *>(p), size); });
  auto release = [mapping](std::string_view copied) {
    // The whole pages within the bytes (a page they share with a neighbour
    // stays).
    auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    auto begin = (reinterpret_cast<uintptr_t>(copied.data()) + page - 1) / page * page;
    auto end = (reinterpret_cast<uintptr_t>(copied.data()) + copied.size()) / page * page;
    if (begin < end)
      madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
  };
  return walkModelBytes({static_cast<const char *>(bytes), size}, release);
}

} // namespace xs
