#ifndef XSTITCH_IR_DENSEELEMENTS_H
#define XSTITCH_IR_DENSEELEMENTS_H

// The elements of a dense constant in their element type's own layout (f32 as
// 4-byte floats, f16 and bf16 as their 16-bit patterns, i1 as one byte each,
// integers in their width, little-endian), immutable and shared. Model
// weights live here: stored once at their width, whoever holds them (the IR,
// copies of a function, compiled executables), never widened to f64 for the
// compiler's sake. Small literals written in the text IR keep LiteralValue's
// ints and floats; both print the same way.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "ir/ElementType.h"

namespace xs {

class HostTensor;

class DenseElements {
public:
  /// `count` elements of `type`, copied once from `bytes` (count times the
  /// element's byte size, in the layout above).
  static std::shared_ptr<const DenseElements> copyOf(ElementType type, int64_t count,
                                                     const void *bytes);
  /// The elements of `t`, each rounded or wrapped to t's type as the
  /// interpreter holds them.
  static std::shared_ptr<const DenseElements> fromHostTensor(const HostTensor &t);
  /// `count` elements of `type` at `bytes`, used in place (a mapped program
  /// file's weights are never copied); `owner` keeps them alive. `bytes`
  /// must be kAlignment aligned.
  static std::shared_ptr<const DenseElements>
  viewOf(ElementType type, int64_t count, const void *bytes, std::shared_ptr<const void> owner);
  /// The elements of a `shape` tensor laid out as `transpose` with `perm`
  /// lays them out (result dim i is source dim perm[i]): one copy, moved
  /// byte for byte, so weights keep their width (a Gemm's transposed weight
  /// folds into the layout `dot` reads). perm is a permutation of the dims
  /// and the shape's product is size().
  std::shared_ptr<const DenseElements> transposed(const std::vector<int64_t> &shape,
                                                  const std::vector<int64_t> &perm) const;
  static constexpr size_t kAlignment = 64;

  ElementType elementType() const { return type_; }
  int64_t size() const { return count_; }
  int64_t byteSize() const { return count_ * elementByteSize(type_); }
  /// kAlignment aligned, so kernels may read them as they read any buffer.
  const void *data() const { return view_ ? view_ : data_.get(); }

  /// Element i as a double (exact for every float type) or as an int64
  /// (integer and i1 types).
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;

  /// A digest of the type and the bytes, computed once; stable across
  /// processes and machines (compile-cache keys use it).
  uint64_t contentHash() const;
  /// Same type and same bytes.
  bool sameContent(const DenseElements &other) const;

private:
  DenseElements(ElementType type, int64_t count, bool allocate = true);

  struct AlignedFree {
    void operator()(std::byte *p) const;
  };
  ElementType type_;
  int64_t count_;
  std::unique_ptr<std::byte[], AlignedFree> data_;
  const std::byte *view_ = nullptr; // viewOf: the elements, owned by owner_
  std::shared_ptr<const void> owner_;
  mutable std::once_flag hashOnce_;
  mutable uint64_t hash_ = 0;
};

/// The elements' memory, kept alive by the returned pointer: a compiled
/// executable's constant aliases it instead of copying it.
inline std::shared_ptr<const void> sharedData(std::shared_ptr<const DenseElements> elements) {
  const void *data = elements->data();
  return std::shared_ptr<const void>(std::move(elements), data);
}

/// A stable 64-bit digest of bytes, near memory speed for long ones (weights
/// are hundreds of MB).
uint64_t hashBytes64(const void *data, size_t size, uint64_t seed = 0);

} // namespace xs

#endif // XSTITCH_IR_DENSEELEMENTS_H
