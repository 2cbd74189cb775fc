#include "ir/ScalarConversions.h"

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace xs {

int64_t convertDoubleToInteger(double v, ElementType to) {
  if (isBool(to))
    return v != 0.0 ? 1 : 0;
  if (std::isnan(v) || std::isinf(v))
    return 0;
  double truncated = std::trunc(v);
  uint64_t bits;
  if (std::fabs(truncated) < 0x1p63) {
    bits = static_cast<uint64_t>(static_cast<int64_t>(truncated));
  } else {
    // Beyond int64, reduce modulo 2^64 so the value still wraps like an
    // unbounded two's-complement integer; fmod and the addition are exact
    // because such doubles are multiples of 2^11.
    double reduced = std::fmod(truncated, 0x1p64);
    if (reduced < 0)
      reduced += 0x1p64;
    bits = static_cast<uint64_t>(reduced);
  }
  return wrapToIntegerType(static_cast<int64_t>(bits), to);
}

namespace {
int mantissaBits(ElementType t) {
  switch (t) {
  case ElementType::F16:
    return 10;
  case ElementType::BF16:
    return 7;
  case ElementType::F32:
    return 23;
  default:
    return 52;
  }
}
} // namespace

double convertIntegerToFloat(int64_t v, ElementType to) {
  if (to == ElementType::F64)
    return static_cast<double>(v);
  // Below 2^53 the conversion to f64 is exact, so rounding once from there is
  // correct. Above, round the integer itself to the type's precision first.
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (magnitude < (uint64_t(1) << 53))
    return roundToFloatType(static_cast<double>(v), to);
  int significantBits = mantissaBits(to) + 1;
  int width = 64 - __builtin_clzll(magnitude);
  int dropped = width - significantBits;
  uint64_t kept = magnitude >> dropped;
  uint64_t remainder = magnitude & ((uint64_t(1) << dropped) - 1);
  uint64_t half = uint64_t(1) << (dropped - 1);
  if (remainder > half || (remainder == half && (kept & 1)))
    ++kept;
  double rounded = std::ldexp(static_cast<double>(kept), dropped);
  // Already representable in `to` (or out of its range: roundToFloatType makes it inf).
  return roundToFloatType(v < 0 ? -rounded : rounded, to);
}

int64_t integerTypeMin(ElementType t) {
  switch (t) {
  case ElementType::I1:
  case ElementType::U8:
    return 0;
  case ElementType::I8:
    return std::numeric_limits<int8_t>::min();
  case ElementType::I32:
    return std::numeric_limits<int32_t>::min();
  case ElementType::I64:
    return std::numeric_limits<int64_t>::min();
  default:
    assert(false && "not an integer type");
    return 0;
  }
}

int64_t integerTypeMax(ElementType t) {
  switch (t) {
  case ElementType::I1:
    return 1;
  case ElementType::U8:
    return 255;
  case ElementType::I8:
    return std::numeric_limits<int8_t>::max();
  case ElementType::I32:
    return std::numeric_limits<int32_t>::max();
  case ElementType::I64:
    return std::numeric_limits<int64_t>::max();
  default:
    assert(false && "not an integer type");
    return 0;
  }
}

} // namespace xs
