#include "ir/FloatBits.h"

#include <cmath>

namespace xs {
namespace {

/// A binary floating-point format narrower than f64.
struct SmallFloatFormat {
  int mantissaBits;
  int exponentBits;
  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  uint32_t exponentMask() const { return ((1u << exponentBits) - 1) << mantissaBits; }
  uint32_t signBit() const { return 1u << (mantissaBits + exponentBits); }
};

constexpr SmallFloatFormat kF16{10, 5};
constexpr SmallFloatFormat kBF16{7, 8};

/// Rounds a non-negative integral-or-not value to an integer, ties to even.
/// `q - floor(q)` is exact in f64, so the tie test is exact.
uint64_t roundHalfEven(double q) {
  double whole = std::floor(q);
  double fraction = q - whole;
  uint64_t n = static_cast<uint64_t>(whole);
  if (fraction > 0.5 || (fraction == 0.5 && (n & 1) != 0))
    ++n;
  return n;
}

uint16_t encode(double v, SmallFloatFormat format) {
  uint32_t sign = std::signbit(v) ? format.signBit() : 0;
  if (std::isnan(v))
    return static_cast<uint16_t>(sign | format.exponentMask() | (1u << (format.mantissaBits - 1)));
  double magnitude = std::fabs(v);
  if (std::isinf(magnitude))
    return static_cast<uint16_t>(sign | format.exponentMask());
  if (magnitude == 0)
    return static_cast<uint16_t>(sign);
  int exponent2 = 0;
  std::frexp(magnitude, &exponent2);
  // magnitude lies in [2^e, 2^(e+1)).
  int e = exponent2 - 1;
  int minNormal = 1 - format.bias();
  int maxNormal = format.bias();
  if (e > maxNormal)
    return static_cast<uint16_t>(sign | format.exponentMask());
  // The spacing of representable values around `magnitude`: the quotient is
  // exact because the divisor is a power of two in f64's range.
  int quantumExponent = (e < minNormal ? minNormal : e) - format.mantissaBits;
  uint64_t n = roundHalfEven(std::ldexp(magnitude, -quantumExponent));
  uint32_t bits;
  if (e < minNormal) {
    // Subnormal; rounding up to 2^mantissaBits yields the smallest normal.
    bits = static_cast<uint32_t>(n);
  } else {
    // A carry out of the mantissa moves into the exponent, and from the
    // largest finite value into the infinity pattern.
    bits = (static_cast<uint32_t>(e + format.bias()) << format.mantissaBits) +
           static_cast<uint32_t>(n - (uint64_t{1} << format.mantissaBits));
  }
  return static_cast<uint16_t>(sign | bits);
}

double decode(uint16_t bits, SmallFloatFormat format) {
  bool negative = (bits & format.signBit()) != 0;
  uint32_t exponentField = (bits & format.exponentMask()) >> format.mantissaBits;
  uint32_t mantissa = bits & ((1u << format.mantissaBits) - 1);
  double magnitude;
  if (exponentField == (1u << format.exponentBits) - 1)
    magnitude = mantissa == 0 ? INFINITY : NAN;
  else if (exponentField == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - format.bias() - format.mantissaBits);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa | (1u << format.mantissaBits)),
                           static_cast<int>(exponentField) - format.bias() - format.mantissaBits);
  return negative ? -magnitude : magnitude;
}

} // namespace

uint16_t encodeF16(double v) { return encode(v, kF16); }
uint16_t encodeBF16(double v) { return encode(v, kBF16); }
double decodeF16(uint16_t bits) { return decode(bits, kF16); }
double decodeBF16(uint16_t bits) { return decode(bits, kBF16); }

} // namespace xs
