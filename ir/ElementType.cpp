#include "ir/ElementType.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>

namespace xs {

std::string_view elementTypeName(ElementType t) {
  switch (t) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F64:
    return "f64";
  case ElementType::I1:
    return "i1";
  case ElementType::I8:
    return "i8";
  case ElementType::U8:
    return "u8";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  }
  assert(false && "unknown element type");
  return "?";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType t : kAllElementTypes)
    if (elementTypeName(t) == name)
      return t;
  return std::nullopt;
}

bool isFloat(ElementType t) {
  return t == ElementType::F32 || t == ElementType::F16 || t == ElementType::BF16 ||
         t == ElementType::F64;
}
bool isInteger(ElementType t) {
  return t == ElementType::I8 || t == ElementType::U8 || t == ElementType::I32 ||
         t == ElementType::I64;
}
bool isSignedInteger(ElementType t) {
  return t == ElementType::I8 || t == ElementType::I32 || t == ElementType::I64;
}
bool isBool(ElementType t) { return t == ElementType::I1; }

int64_t elementByteSize(ElementType t) {
  switch (t) {
  case ElementType::F64:
  case ElementType::I64:
    return 8;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::I1:
  case ElementType::I8:
  case ElementType::U8:
    return 1;
  }
  assert(false && "unknown element type");
  return 0;
}

int integerBitWidth(ElementType t) {
  switch (t) {
  case ElementType::I1:
    return 1;
  case ElementType::I8:
  case ElementType::U8:
    return 8;
  case ElementType::I32:
    return 32;
  case ElementType::I64:
    return 64;
  default:
    assert(false && "not an integer type");
    return 0;
  }
}

namespace {
// Rounds an f64 to a float format with `mantissaBits` explicit mantissa bits
// and exponent range [minExp, maxExp] (IEEE-style, with subnormals), ties to
// even. Used for f16 and bf16, which C++20 has no portable type for.
double roundToFormat(double v, int mantissaBits, int minExp, int maxExp) {
  if (std::isnan(v) || std::isinf(v) || v == 0.0)
    return v;
  int exp;
  std::frexp(v, &exp); // v = m * 2^exp, 0.5 <= |m| < 1
  int unbiased = exp - 1;
  if (unbiased < minExp)
    unbiased = minExp; // subnormal: fixed quantum
  double quantum = std::ldexp(1.0, unbiased - mantissaBits);
  double r = std::nearbyint(v / quantum) * quantum; // default rounding: ties to even
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -mantissaBits), maxExp);
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, v);
  return r;
}
} // namespace

double roundToFloatType(double v, ElementType t) {
  switch (t) {
  case ElementType::F64:
    return v;
  case ElementType::F32:
    return static_cast<double>(static_cast<float>(v));
  case ElementType::F16:
    return roundToFormat(v, 10, -14, 15);
  case ElementType::BF16:
    return roundToFormat(v, 7, -126, 127);
  default:
    assert(false && "not a float type");
    return v;
  }
}

int64_t wrapToIntegerType(int64_t v, ElementType t) {
  switch (t) {
  case ElementType::I1:
    return v != 0 ? 1 : 0;
  case ElementType::I8:
    return static_cast<int8_t>(static_cast<uint8_t>(v & 0xff));
  case ElementType::U8:
    return static_cast<uint8_t>(v & 0xff);
  case ElementType::I32:
    return static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffffu));
  case ElementType::I64:
    return v;
  default:
    assert(false && "not an integer type");
    return v;
  }
}

} // namespace xs
