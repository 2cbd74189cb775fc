#include "ir/DenseElements.h"

#include <cassert>
#include <cstdlib>
#include <cstring>

#include "ir/FloatBits.h"
#include "ir/HostTensor.h"

namespace xs {

namespace {

template <typename T> T load(const std::byte *data, int64_t i) {
  T v;
  std::memcpy(&v, data + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

template <typename T> void store(std::byte *data, int64_t i, T v) {
  std::memcpy(data + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

uint64_t mix(uint64_t a, uint64_t b) {
  // 64x64 -> 128-bit multiply, folded: the core of wyhash-style mixers.
  unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

constexpr uint64_t kPrime0 = 0xa0761d6478bd642full;
constexpr uint64_t kPrime1 = 0xe7037ed1a0b428dbull;
constexpr uint64_t kPrime2 = 0x8ebc6af09c88c6e3ull;
constexpr uint64_t kPrime3 = 0x589965cc75374cc3ull;

/// The scalar hash: short inputs and the tail of long ones.
uint64_t hashShort(const void *data, size_t size, uint64_t seed) {
  const auto *p = static_cast<const unsigned char *>(data);
  auto word = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, p + at, 8);
    return v;
  };
  // Four independent lanes over 32-byte stripes keep the multipliers busy.
  uint64_t lanes[4] = {seed ^ kPrime0, seed ^ kPrime1, seed ^ kPrime2, seed ^ kPrime3};
  size_t at = 0;
  for (; at + 32 <= size; at += 32)
    for (int l = 0; l < 4; ++l)
      lanes[l] = mix(word(at + 8 * l) ^ kPrime1, lanes[l] ^ kPrime0);
  uint64_t h = mix(lanes[0] ^ lanes[1], lanes[2] ^ lanes[3] ^ kPrime2);
  for (; at + 8 <= size; at += 8)
    h = mix(word(at) ^ kPrime1, h ^ kPrime0);
  uint64_t tail = 0;
  std::memcpy(&tail, p + at, size - at);
  return mix(h ^ tail ^ kPrime3, size ^ kPrime2);
}

/// Long inputs: eight 64-bit lanes over 64-byte stripes, each adding the
/// product of its word's halves (32x32 -> 64 bits: vpmuludq, so the loop
/// vectorizes and runs near memory speed; XXH3's accumulation), scrambled
/// every kilobyte. Compile-cache keys hash every weight of a model and
/// program files checksum them again, so this is what a load from the
/// persistent cache waits for.
/// Compiled for the widest vectors the host has (the same value on each).
__attribute__((target_clones("avx512f", "avx2", "default"))) uint64_t
hashLong(const unsigned char *p, size_t size, uint64_t seed) {
  constexpr size_t kLanes = 8, kStripe = 64, kBlock = 1024;
  constexpr uint64_t kKey[kLanes] = {
      0xbe4ba423396cfeb8ull, 0x1cad21f72c81017cull, 0xdb979083e96dd4deull, 0x1f67b3b7a4a44072ull,
      0x78e5c0cc4ee679cbull, 0x2172ffcc7dd05a82ull, 0x8e2443f7744608b8ull, 0x4c263a81e69035e0ull};
  uint64_t acc[kLanes], sums[kLanes];
  for (size_t l = 0; l < kLanes; ++l)
    acc[l] = kKey[l] ^ seed;
  size_t at = 0;
  for (; at + kBlock <= size; at += kBlock) {
    // Lane-wise only (the words' sums cross lanes once a block), so that
    // the loop vectorizes.
    for (size_t l = 0; l < kLanes; ++l)
      sums[l] = 0;
    for (size_t stripe = 0; stripe < kBlock; stripe += kStripe)
      for (size_t l = 0; l < kLanes; ++l) {
        uint64_t word;
        std::memcpy(&word, p + at + stripe + 8 * l, 8);
        uint64_t keyed = word ^ kKey[l];
        sums[l] += word;
        acc[l] += (keyed & 0xffffffffull) * (keyed >> 32);
      }
    for (size_t l = 0; l < kLanes; ++l)
      acc[l] = ((acc[l] + sums[l ^ 1]) ^ ((acc[l] + sums[l ^ 1]) >> 47) ^ kKey[l]) * 0x9e3779b1ull;
  }
  uint64_t h = seed ^ kPrime2;
  for (size_t l = 0; l < kLanes; ++l)
    h = mix(acc[l] ^ kPrime1, h ^ kPrime0);
  return hashShort(p + at, size - at, h ^ size);
}

} // namespace

uint64_t hashBytes64(const void *data, size_t size, uint64_t seed) {
  return size >= 1024 ? hashLong(static_cast<const unsigned char *>(data), size, seed)
                      : hashShort(data, size, seed);
}

void DenseElements::AlignedFree::operator()(std::byte *p) const { std::free(p); }

DenseElements::DenseElements(ElementType type, int64_t count, bool allocate)
    : type_(type), count_(count) {
  if (!allocate)
    return;
  size_t bytes = static_cast<size_t>(byteSize());
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  data_.reset(
      static_cast<std::byte *>(std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment)));
  if (!data_)
    throw std::bad_alloc();
}

std::shared_ptr<const DenseElements> DenseElements::copyOf(ElementType type, int64_t count,
                                                           const void *bytes) {
  std::shared_ptr<DenseElements> out(new DenseElements(type, count));
  if (count > 0)
    std::memcpy(out->data_.get(), bytes, static_cast<size_t>(out->byteSize()));
  return out;
}

std::shared_ptr<const DenseElements> DenseElements::viewOf(ElementType type, int64_t count,
                                                           const void *bytes,
                                                           std::shared_ptr<const void> owner) {
  assert(reinterpret_cast<uintptr_t>(bytes) % kAlignment == 0 && "a view must be aligned");
  std::shared_ptr<DenseElements> out(new DenseElements(type, count, /*allocate=*/false));
  out->view_ = static_cast<const std::byte *>(bytes);
  out->owner_ = std::move(owner);
  return out;
}

std::shared_ptr<const DenseElements>
DenseElements::transposed(const std::vector<int64_t> &shape,
                          const std::vector<int64_t> &perm) const {
  assert(shape.size() == perm.size() && "a permutation of every dim");
  const size_t rank = shape.size();
  const size_t width = static_cast<size_t>(elementByteSize(type_));
  // Source strides in elements, then the result's dims and the matching
  // source strides: the result is walked in order, the source by strides.
  std::vector<int64_t> sourceStride(rank, 1);
  for (size_t d = rank; d-- > 1;)
    sourceStride[d - 1] = sourceStride[d] * shape[d];
  std::vector<int64_t> dims(rank), stride(rank);
  for (size_t i = 0; i < rank; ++i) {
    dims[i] = shape[static_cast<size_t>(perm[i])];
    stride[i] = sourceStride[static_cast<size_t>(perm[i])];
  }
  std::shared_ptr<DenseElements> out(new DenseElements(type_, count_));
  if (count_ == 0)
    return out;
  if (rank == 0) {
    std::memcpy(out->data_.get(), data(), width);
    return out;
  }
  const auto *from = static_cast<const std::byte *>(data());
  std::byte *to = out->data_.get();
  // The innermost result dim is one strided run per row of the result.
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = stride[rank - 1];
  std::vector<int64_t> index(rank, 0);
  for (int64_t written = 0; written < count_; written += inner) {
    int64_t source = 0;
    for (size_t d = 0; d + 1 < rank; ++d)
      source += index[d] * stride[d];
    for (int64_t j = 0; j < inner; ++j)
      std::memcpy(to + static_cast<size_t>(written + j) * width,
                  from + static_cast<size_t>(source + j * innerStride) * width, width);
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < dims[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

std::shared_ptr<const DenseElements> DenseElements::fromHostTensor(const HostTensor &t) {
  std::shared_ptr<DenseElements> out(new DenseElements(t.elementType(), t.numElements()));
  std::byte *data = out->data_.get();
  for (int64_t i = 0; i < t.numElements(); ++i) {
    size_t k = static_cast<size_t>(i);
    switch (t.elementType()) {
    case ElementType::F32:
      store<float>(data, i, static_cast<float>(t.floats()[k]));
      break;
    case ElementType::F64:
      store<double>(data, i, t.floats()[k]);
      break;
    case ElementType::F16:
      store<uint16_t>(data, i, encodeF16(t.floats()[k]));
      break;
    case ElementType::BF16:
      store<uint16_t>(data, i, encodeBF16(t.floats()[k]));
      break;
    case ElementType::I1:
      store<uint8_t>(data, i, t.ints()[k] != 0 ? 1 : 0);
      break;
    case ElementType::U8:
      store<uint8_t>(data, i, static_cast<uint8_t>(t.ints()[k]));
      break;
    case ElementType::I8:
      store<int8_t>(data, i, static_cast<int8_t>(t.ints()[k]));
      break;
    case ElementType::I32:
      store<int32_t>(data, i, static_cast<int32_t>(t.ints()[k]));
      break;
    case ElementType::I64:
      store<int64_t>(data, i, t.ints()[k]);
      break;
    }
  }
  return out;
}

double DenseElements::getDouble(int64_t i) const {
  assert(i >= 0 && i < count_ && "element index out of range");
  const std::byte *data = static_cast<const std::byte *>(this->data());
  switch (type_) {
  case ElementType::F32:
    return load<float>(data, i);
  case ElementType::F64:
    return load<double>(data, i);
  case ElementType::F16:
    return decodeF16(load<uint16_t>(data, i));
  case ElementType::BF16:
    return decodeBF16(load<uint16_t>(data, i));
  default:
    return static_cast<double>(getInt(i));
  }
}

int64_t DenseElements::getInt(int64_t i) const {
  assert(i >= 0 && i < count_ && "element index out of range");
  const std::byte *data = static_cast<const std::byte *>(this->data());
  switch (type_) {
  case ElementType::I1:
    return load<uint8_t>(data, i) != 0 ? 1 : 0;
  case ElementType::U8:
    return load<uint8_t>(data, i);
  case ElementType::I8:
    return load<int8_t>(data, i);
  case ElementType::I32:
    return load<int32_t>(data, i);
  case ElementType::I64:
    return load<int64_t>(data, i);
  default:
    return static_cast<int64_t>(getDouble(i));
  }
}

uint64_t DenseElements::contentHash() const {
  std::call_once(hashOnce_, [this] {
    hash_ = hashBytes64(data(), static_cast<size_t>(byteSize()), static_cast<uint64_t>(type_) + 1);
  });
  return hash_;
}

bool DenseElements::sameContent(const DenseElements &other) const {
  if (this == &other)
    return true;
  return type_ == other.type_ && count_ == other.count_ && contentHash() == other.contentHash() &&
         std::memcmp(data(), other.data(), static_cast<size_t>(byteSize())) == 0;
}

} // namespace xs
