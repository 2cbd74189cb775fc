#include "runtime/Tensor.h"

#include <cassert>
#include <cstdlib>
#include <cstring>

#include "ir/FloatBits.h"

namespace xs {

namespace {

constexpr size_t kTensorAlignment = 64;

int64_t productOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::shared_ptr<void> allocateZeroed(int64_t bytes) {
  // aligned_alloc wants a size that is a multiple of the alignment; a
  // zero-size tensor still gets a valid, unique pointer.
  size_t rounded =
      (static_cast<size_t>(bytes) + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
  if (rounded == 0)
    rounded = kTensorAlignment;
  void *memory = std::aligned_alloc(kTensorAlignment, rounded);
  if (memory == nullptr)
    return nullptr;
  std::memset(memory, 0, rounded);
  return std::shared_ptr<void>(memory, [](void *p) { std::free(p); });
}

template <typename T> void storeInts(const HostTensor &t, void *data) {
  T *out = static_cast<T *>(data);
  for (int64_t i = 0; i < t.numElements(); ++i)
    out[i] = static_cast<T>(wrapToIntegerType(t.ints()[static_cast<size_t>(i)], t.elementType()));
}

template <typename T> void loadInts(const void *data, HostTensor &t) {
  const T *in = static_cast<const T *>(data);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.ints()[static_cast<size_t>(i)] = static_cast<int64_t>(in[i]);
}

} // namespace

int64_t TensorView::numElements() const { return productOf(shape); }

int64_t TensorView::byteSize() const { return numElements() * elementByteSize(type); }

Tensor::Tensor(ElementType type, std::vector<int64_t> shape) {
  view_.type = type;
  view_.shape = std::move(shape);
  storage_ = allocateZeroed(view_.byteSize());
  // Out of memory is not a user error we can report from a constructor; an
  // empty tensor would only move the crash elsewhere.
  assert(storage_ != nullptr && "out of memory allocating a tensor");
  view_.data = storage_.get();
}

Tensor::Tensor(ElementType type, std::vector<int64_t> shape, std::shared_ptr<void> storage)
    : storage_(std::move(storage)) {
  view_.type = type;
  view_.shape = std::move(shape);
  view_.data = storage_.get();
}

Tensor toTensor(const HostTensor &t) {
  Tensor result(t.elementType(), t.shape());
  void *data = result.data();
  int64_t n = t.numElements();
  switch (t.elementType()) {
  case ElementType::F32: {
    float *out = static_cast<float *>(data);
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<float>(t.floats()[static_cast<size_t>(i)]);
    break;
  }
  case ElementType::F64:
    if (n > 0)
      std::memcpy(data, t.floats().data(), static_cast<size_t>(n) * sizeof(double));
    break;
  case ElementType::F16: {
    uint16_t *out = static_cast<uint16_t *>(data);
    for (int64_t i = 0; i < n; ++i)
      out[i] = encodeF16(t.floats()[static_cast<size_t>(i)]);
    break;
  }
  case ElementType::BF16: {
    uint16_t *out = static_cast<uint16_t *>(data);
    for (int64_t i = 0; i < n; ++i)
      out[i] = encodeBF16(t.floats()[static_cast<size_t>(i)]);
    break;
  }
  case ElementType::I1:
  case ElementType::U8:
    storeInts<uint8_t>(t, data);
    break;
  case ElementType::I8:
    storeInts<int8_t>(t, data);
    break;
  case ElementType::I32:
    storeInts<int32_t>(t, data);
    break;
  case ElementType::I64:
    storeInts<int64_t>(t, data);
    break;
  }
  return result;
}

HostTensor toHostTensor(const TensorView &t) {
  HostTensor result(t.type, t.shape);
  int64_t n = result.numElements();
  switch (t.type) {
  case ElementType::F32: {
    const float *in = static_cast<const float *>(t.data);
    for (int64_t i = 0; i < n; ++i)
      result.floats()[static_cast<size_t>(i)] = static_cast<double>(in[i]);
    break;
  }
  case ElementType::F64:
    if (n > 0)
      std::memcpy(result.floats().data(), t.data, static_cast<size_t>(n) * sizeof(double));
    break;
  case ElementType::F16: {
    const uint16_t *in = static_cast<const uint16_t *>(t.data);
    for (int64_t i = 0; i < n; ++i)
      result.floats()[static_cast<size_t>(i)] = decodeF16(in[i]);
    break;
  }
  case ElementType::BF16: {
    const uint16_t *in = static_cast<const uint16_t *>(t.data);
    for (int64_t i = 0; i < n; ++i)
      result.floats()[static_cast<size_t>(i)] = decodeBF16(in[i]);
    break;
  }
  case ElementType::I1: {
    // Any non-zero byte is true, as a C bool array would be read.
    const uint8_t *in = static_cast<const uint8_t *>(t.data);
    for (int64_t i = 0; i < n; ++i)
      result.ints()[static_cast<size_t>(i)] = in[i] != 0 ? 1 : 0;
    break;
  }
  case ElementType::U8:
    loadInts<uint8_t>(t.data, result);
    break;
  case ElementType::I8:
    loadInts<int8_t>(t.data, result);
    break;
  case ElementType::I32:
    loadInts<int32_t>(t.data, result);
    break;
  case ElementType::I64:
    loadInts<int64_t>(t.data, result);
    break;
  }
  return result;
}

} // namespace xs
