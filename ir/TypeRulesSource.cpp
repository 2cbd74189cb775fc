// Typing rules of source ops (constant, iota), whose type is written in the
// text and validated against their attributes.

#include <cmath>

#include "ir/TypeRulesSupport.h"

namespace xs::rules {

namespace {

// The inclusive range of an integer element type.
std::pair<int64_t, int64_t> integerLimits(ElementType t) {
  switch (t) {
  case ElementType::I1:
    return {0, 1};
  case ElementType::I8:
    return {-128, 127};
  case ElementType::U8:
    return {0, 255};
  case ElementType::I32:
    return {INT32_MIN, INT32_MAX};
  default:
    return {INT64_MIN, INT64_MAX};
  }
}

absl::Status checkLiteralValues(const Operation &op, const LiteralValue &lit,
                                const TensorType &type) {
  ElementType et = type.elementType();
  if (lit.elements) {
    // Stored in their type already: nothing to range-check, but the type
    // must be the result's.
    if (lit.elements->elementType() != et)
      return opError(op, "the literal's elements are ",
                     piece(elementTypeName(lit.elements->elementType())),
                     ", but the result type is ", type.str());
    return absl::OkStatus();
  }
  if (isFloat(et))
    return absl::OkStatus();
  if (!lit.isInteger) {
    for (double v : lit.floats)
      if (std::isnan(v) || std::isinf(v) || v != std::floor(v))
        return opError(op, "value ", formatFloat(v), " is not an integer, but the result type ",
                       type.str(), " has integer elements; write an integer or use a float type");
  }
  auto [lo, hi] = integerLimits(et);
  for (int64_t i = 0; i < lit.size(); ++i) {
    double v = lit.asDouble(i);
    if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
      return opError(op, "value ", lit.isInteger ? absl::StrCat(lit.asInt(i)) : formatFloat(v),
                     " does not fit in ", piece(elementTypeName(et)), " (range ", lo, " to ", hi,
                     ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorType> inferConstant(const Operation &op) {
  const TensorType &type = op.type();
  const LiteralValue &lit = op.attr("value")->getLiteral();
  int64_t count = 1;
  for (int64_t d : lit.shape)
    count *= d;
  if (count != lit.size())
    return opError(op, "the dense literal has ", lit.size(), " elements, but its shape ",
                   intListStr(lit.shape), " needs ", count);
  if (!lit.shape.empty()) {
    std::optional<std::vector<int64_t>> shape = type.staticShape();
    if (!shape)
      return opError(op, "a dense literal needs a static result type, but it is ", type.str(),
                     "; write the sizes as numbers or use a scalar value");
    if (*shape != lit.shape)
      return opError(op, "the dense literal has shape ", intListStr(lit.shape),
                     ", but the result type is ", type.str());
  }
  if (absl::Status s = checkLiteralValues(op, lit, type); !s.ok())
    return s;
  return type;
}

absl::StatusOr<TensorType> inferIota(const Operation &op) {
  const TensorType &type = op.type();
  if (type.elementType() == ElementType::I1)
    return opError(op, "the result type ", type.str(),
                   " must be numeric (float or integer, not i1)");
  if (absl::Status s = requireAxis(op, "dim", op.attr("dim")->getInt(), type.rank(), type); !s.ok())
    return s;
  return type;
}

/// One dim fills any shape; several make a vector of as many elements.
absl::StatusOr<TensorType> inferDimValue(const Operation &op) {
  const TensorType &type = op.type();
  const std::vector<DimExpr> &dims = op.attr("dims")->getDimList();
  if (type.elementType() == ElementType::I1)
    return opError(op, "the result type ", type.str(),
                   " must be numeric (float or integer, not i1)");
  if (dims.empty())
    return opError(op, "'dims' needs at least one dim");
  if (dims.size() > 1 &&
      (type.rank() != 1 || type.dim(0) != DimExpr(static_cast<int64_t>(dims.size()))))
    return opError(op, dims.size(), " dims make a vector of ", dims.size(),
                   " elements, but the result type is ", type.str());
  return type;
}

} // namespace

absl::StatusOr<TensorType> inferSource(const Operation &op, DimUnifier &) {
  if (op.info().rule == TypeRule::Constant)
    return inferConstant(op);
  if (op.info().rule == TypeRule::DimValue)
    return inferDimValue(op);
  return inferIota(op);
}

} // namespace xs::rules
