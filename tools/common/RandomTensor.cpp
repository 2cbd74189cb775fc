#include "tools/common/RandomTensor.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ir/Diagnostics.h"

namespace xs {

RandomRange defaultRandomRange(ElementType t) {
  if (isFloat(t))
    return {-2.0, 2.0};
  if (isBool(t))
    return {0, 2};
  return {0, 8};
}

absl::StatusOr<std::optional<RandomRange>> parseRandomSpec(std::string_view spec) {
  if (spec.empty())
    return std::optional<RandomRange>();
  std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(spec.data(), spec.size()), ':');
  RandomRange r;
  if (parts.size() != 3 || !parts[0].empty() || !absl::SimpleAtod(parts[1], &r.lo) ||
      !absl::SimpleAtod(parts[2], &r.hi) || !(r.lo < r.hi))
    return absl::InvalidArgumentError(
        strCat("bad random range 'random", spec, "'; write random or random:LO:HI with LO < HI"));
  return std::optional<RandomRange>(r);
}

HostTensor randomTensor(ElementType t, const std::vector<int64_t> &shape, RandomRange range,
                        std::mt19937_64 &rng) {
  HostTensor out(t, shape);
  if (isFloat(t)) {
    std::uniform_real_distribution<double> dist(range.lo, range.hi);
    for (int64_t i = 0; i < out.numElements(); ++i)
      out.setDouble(i, dist(rng));
  } else {
    auto lo = static_cast<int64_t>(std::ceil(range.lo));
    auto hi = static_cast<int64_t>(std::ceil(range.hi)) - 1;
    if (hi < lo)
      hi = lo;
    std::uniform_int_distribution<int64_t> dist(lo, hi);
    for (int64_t i = 0; i < out.numElements(); ++i)
      out.setInt(i, dist(rng));
  }
  return out;
}

} // namespace xs
