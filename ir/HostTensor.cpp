#include "ir/HostTensor.h"

#include <cassert>
#include <cmath>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "ir/ScalarConversions.h"

namespace xs {

HostTensor::HostTensor(ElementType type, std::vector<int64_t> shape)
    : type_(type), shape_(std::move(shape)) {
  numElements_ = 1;
  for (int64_t d : shape_) {
    assert(d >= 0 && "negative dim in a HostTensor");
    numElements_ *= d;
  }
  if (isFloat())
    floats_.assign(static_cast<size_t>(numElements_), 0.0);
  else
    ints_.assign(static_cast<size_t>(numElements_), 0);
}

double HostTensor::getDouble(int64_t i) const {
  return isFloat() ? floats_[static_cast<size_t>(i)]
                   : static_cast<double>(ints_[static_cast<size_t>(i)]);
}

void HostTensor::setDouble(int64_t i, double v) {
  if (isFloat())
    floats_[static_cast<size_t>(i)] = roundToFloatType(v, type_);
  else
    ints_[static_cast<size_t>(i)] = convertDoubleToInteger(v, type_);
}

int64_t HostTensor::getInt(int64_t i) const {
  return isFloat() ? convertDoubleToInteger(floats_[static_cast<size_t>(i)], ElementType::I64)
                   : ints_[static_cast<size_t>(i)];
}

void HostTensor::setInt(int64_t i, int64_t v) {
  if (isFloat())
    floats_[static_cast<size_t>(i)] = convertIntegerToFloat(v, type_);
  else
    ints_[static_cast<size_t>(i)] = wrapToIntegerType(v, type_);
}

std::vector<int64_t> HostTensor::strides() const {
  std::vector<int64_t> result(shape_.size(), 1);
  for (int64_t i = rank() - 2; i >= 0; --i)
    result[static_cast<size_t>(i)] =
        result[static_cast<size_t>(i + 1)] * shape_[static_cast<size_t>(i + 1)];
  return result;
}

std::string HostTensor::typeStr() const {
  return strCat(elementTypeName(type_), "[", absl::StrJoin(shape_, ", "), "]");
}

} // namespace xs
