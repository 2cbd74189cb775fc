#ifndef XSTITCH_IR_TYPE_H
#define XSTITCH_IR_TYPE_H

// A tensor type: element type plus a shape of dimension expressions, printed
// `f32[B*S, 768]` (rank 0: `f32[]`). A value's type may be unknown until shape
// inference runs (the text format lets a result type be left out).

#include <optional>
#include <string>
#include <vector>

#include "ir/DimExpr.h"
#include "ir/ElementType.h"

namespace xs {

class TensorType {
public:
  TensorType() = default;
  TensorType(ElementType elementType, std::vector<DimExpr> shape)
      : known_(true), elementType_(elementType), shape_(std::move(shape)) {}

  /// False for the placeholder of a result whose type is not inferred yet.
  bool known() const { return known_; }
  ElementType elementType() const { return elementType_; }
  const std::vector<DimExpr> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  const DimExpr &dim(int64_t i) const { return shape_[static_cast<size_t>(i)]; }
  /// The number of elements as an expression.
  DimExpr numElements() const { return dimProduct(shape_); }
  /// The shape with every dim constant, or nullopt.
  std::optional<std::vector<int64_t>> staticShape() const;

  TensorType withElementType(ElementType t) const { return TensorType(t, shape_); }
  TensorType withShape(std::vector<DimExpr> shape) const {
    return TensorType(elementType_, std::move(shape));
  }

  /// `f32[B, 768]`; `?` for an unknown type.
  std::string str() const;

  friend bool operator==(const TensorType &a, const TensorType &b) {
    return a.known_ == b.known_ &&
           (!a.known_ || (a.elementType_ == b.elementType_ && a.shape_ == b.shape_));
  }
  friend bool operator!=(const TensorType &a, const TensorType &b) { return !(a == b); }

private:
  bool known_ = false;
  ElementType elementType_ = ElementType::F32;
  std::vector<DimExpr> shape_;
};

} // namespace xs

#endif // XSTITCH_IR_TYPE_H
