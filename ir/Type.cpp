#include "ir/Type.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {

std::optional<std::vector<int64_t>> TensorType::staticShape() const {
  std::vector<int64_t> out;
  for (const DimExpr &d : shape_) {
    std::optional<int64_t> v = d.constantValue();
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::string TensorType::str() const {
  if (!known_)
    return "?";
  return strCat(
      elementTypeName(elementType_), "[",
      absl::StrJoin(shape_, ", ",
                    [](std::string *out, const DimExpr &d) { absl::StrAppend(out, d.str()); }),
      "]");
}

} // namespace xs
