#ifndef XSTITCH_IR_HOSTTENSOR_H
#define XSTITCH_IR_HOSTTENSOR_H

// A tensor in host memory with concrete dims, as the reference interpreter
// sees it: float types hold f64 values (already rounded to their type when
// they come from outside), integer and i1 types hold exact int64 values.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ElementType.h"

namespace xs {

class HostTensor {
public:
  HostTensor() = default;
  HostTensor(ElementType type, std::vector<int64_t> shape);

  ElementType elementType() const { return type_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numElements() const { return numElements_; }
  bool isFloat() const { return xs::isFloat(type_); }

  /// Element storage in row-major order; exactly one is in use.
  std::vector<double> &floats() { return floats_; }
  const std::vector<double> &floats() const { return floats_; }
  std::vector<int64_t> &ints() { return ints_; }
  const std::vector<int64_t> &ints() const { return ints_; }

  /// Element i converted to double (exact for floats and small integers).
  double getDouble(int64_t i) const;
  /// Stores v at i, rounded to a float type or wrapped to an integer type
  /// (integer types truncate toward zero; NaN stores 0).
  void setDouble(int64_t i, double v);
  int64_t getInt(int64_t i) const;
  void setInt(int64_t i, int64_t v);

  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;
  /// `f32[2, 3]`.
  std::string typeStr() const;

private:
  ElementType type_ = ElementType::F32;
  std::vector<int64_t> shape_;
  int64_t numElements_ = 0;
  std::vector<double> floats_;
  std::vector<int64_t> ints_;
};

} // namespace xs

#endif // XSTITCH_IR_HOSTTENSOR_H
