// Typing rules of element-wise ops: unary, binary, compare, select, cast.

#include "ir/TypeRulesSupport.h"

namespace xs::rules {

namespace {

constexpr std::string_view kSameShape =
    "element-wise operands must have identical shapes (insert a broadcast)";
constexpr std::string_view kSameElementType =
    "element-wise operands must have the same element type (insert a cast)";

absl::StatusOr<TensorType> inferBinary(const Operation &op, DimUnifier &u, bool logical) {
  for (size_t i = 0; i < 2; ++i)
    if (absl::Status s = logical ? requireLogical(op, i) : requireNumeric(op, i); !s.ok())
      return s;
  if (absl::Status s = requireSameElementType(op, 0, 1, kSameElementType); !s.ok())
    return s;
  if (absl::Status s = requireSameShape(op, u, 0, 1, kSameShape); !s.ok())
    return s;
  return op.operand(0)->type();
}

} // namespace

absl::StatusOr<TensorType> inferElementwise(const Operation &op, DimUnifier &u) {
  const TensorType &x = op.operand(0)->type();
  switch (op.info().rule) {
  case TypeRule::UnaryNumeric:
    if (absl::Status s = requireNumeric(op, 0); !s.ok())
      return s;
    return x;
  case TypeRule::UnaryFloat:
    if (absl::Status s = requireFloat(op, 0); !s.ok())
      return s;
    return x;
  case TypeRule::UnaryPredicate:
    if (absl::Status s = requireFloat(op, 0); !s.ok())
      return s;
    return x.withElementType(ElementType::I1);
  case TypeRule::UnaryLogical:
    if (absl::Status s = requireLogical(op, 0); !s.ok())
      return s;
    return x;
  case TypeRule::BinaryNumeric:
    return inferBinary(op, u, /*logical=*/false);
  case TypeRule::BinaryLogical:
    return inferBinary(op, u, /*logical=*/true);
  case TypeRule::Compare: {
    if (absl::Status s = requireEnum(op, "dir", {"eq", "ne", "lt", "le", "gt", "ge"}); !s.ok())
      return s;
    absl::StatusOr<TensorType> t = inferBinary(op, u, /*logical=*/false);
    if (!t.ok())
      return t.status();
    return t->withElementType(ElementType::I1);
  }
  case TypeRule::Select: {
    const TensorType &cond = op.operand(0)->type();
    if (!isBool(cond.elementType()))
      return opError(op, "the condition (operand 0) has type ", cond.str(),
                     ", but it must be i1 (produce it with compare, or cast to i1)");
    if (absl::Status s = requireSameElementType(op, 1, 2,
                                                "the two choices of select must have the same "
                                                "element type (insert a cast)");
        !s.ok())
      return s;
    if (absl::Status s = requireSameShape(op, u, 1, 2,
                                          "the two choices of select must have identical shapes "
                                          "(insert a broadcast)");
        !s.ok())
      return s;
    if (absl::Status s = requireSameShape(op, u, 1, 0,
                                          "the condition must have the shape of the choices "
                                          "(insert a broadcast)");
        !s.ok())
      return s;
    return op.operand(1)->type();
  }
  case TypeRule::Cast:
    return x.withElementType(op.attr("to")->getElementType());
  default:
    break;
  }
  assert(false && "not an element-wise rule");
  return opError(op, "internal error: not an element-wise rule");
}

} // namespace xs::rules
