#ifndef XSTITCH_RUNTIME_TENSOR_H
#define XSTITCH_RUNTIME_TENSOR_H

// Tensors as the runtime exchanges them: typed row-major memory (i1 as one
// byte, f16/bf16 as 16-bit patterns), like a DLPack DLTensor.

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/ElementType.h"
#include "ir/HostTensor.h"

namespace xs {

/// A view of memory the caller owns.
struct TensorView {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  void *data = nullptr;
  int64_t numElements() const;
  int64_t byteSize() const;
};

/// Memory the runtime allocated and hands over (outputs).
class Tensor {
public:
  /// Zero-filled, 64-byte aligned memory of the shape's size.
  Tensor(ElementType type, std::vector<int64_t> shape);
  /// Adopts `storage` (at least the shape's byte size; e.g. a block of the
  /// runtime's caching allocator that returns to its cache when released).
  Tensor(ElementType type, std::vector<int64_t> shape, std::shared_ptr<void> storage);
  ElementType type() const { return view_.type; }
  const std::vector<int64_t> &shape() const { return view_.shape; }
  void *data() { return view_.data; }
  const void *data() const { return view_.data; }
  const TensorView &view() const { return view_; }
  /// The memory, shared with whoever else holds it (the C API hands it out).
  const std::shared_ptr<void> &storage() const { return storage_; }

private:
  std::shared_ptr<void> storage_;
  TensorView view_;
};

/// Conversions between the interpreter's HostTensor (f64/int64 values) and
/// typed memory, rounding to the element type.
Tensor toTensor(const HostTensor &t);
HostTensor toHostTensor(const TensorView &t);

} // namespace xs

#endif // XSTITCH_RUNTIME_TENSOR_H
