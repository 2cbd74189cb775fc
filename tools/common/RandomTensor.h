#ifndef XSTITCH_TOOLS_COMMON_RANDOMTENSOR_H
#define XSTITCH_TOOLS_COMMON_RANDOMTENSOR_H

// Random inputs for `--input NAME=random[:LO:HI]`.

#include <optional>
#include <random>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"

namespace xs {

struct RandomRange {
  double lo;
  double hi;
};

/// Default ranges: floats uniform in [-2, 2), integers in [0, 8), u8 [0, 8),
/// i1 0 or 1. Integer ranges are inclusive of lo and exclusive of hi.
RandomRange defaultRandomRange(ElementType t);

/// Parses the text after `random` in `random:LO:HI` (empty: nullopt).
absl::StatusOr<std::optional<RandomRange>> parseRandomSpec(std::string_view spec);

/// A tensor of `shape` with elements drawn from `range`, rounded to the type.
HostTensor randomTensor(ElementType t, const std::vector<int64_t> &shape, RandomRange range,
                        std::mt19937_64 &rng);

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_RANDOMTENSOR_H
