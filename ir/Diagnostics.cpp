#include "ir/Diagnostics.h"

namespace xs {

std::string Location::str() const {
  std::string name = file ? *file : std::string("<unknown>");
  if (!known())
    return name;
  return absl::StrCat(name, ":", line, ":", col);
}

absl::Status errorAt(const Location &loc, std::string_view msg) {
  return absl::InvalidArgumentError(strCat(loc.str(), ": error: ", msg));
}

absl::Status unsupportedAt(const Location &loc, std::string_view msg) {
  return absl::UnimplementedError(strCat(loc.str(), ": error: ", msg));
}

} // namespace xs
