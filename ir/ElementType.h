#ifndef XSTITCH_IR_ELEMENTTYPE_H
#define XSTITCH_IR_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace xs {

/// Element types of tensors. The text spelling is the lower-case name.
enum class ElementType : uint8_t { F32, F16, BF16, F64, I1, I8, U8, I32, I64 };

inline constexpr ElementType kAllElementTypes[] = {
    ElementType::F32, ElementType::F16, ElementType::BF16, ElementType::F64, ElementType::I1,
    ElementType::I8,  ElementType::U8,  ElementType::I32,  ElementType::I64};

std::string_view elementTypeName(ElementType t);
std::optional<ElementType> parseElementType(std::string_view name);

bool isFloat(ElementType t);
/// i8, u8, i32, i64 (not i1).
bool isInteger(ElementType t);
bool isSignedInteger(ElementType t);
bool isBool(ElementType t);
/// Size of one element in bytes as stored in memory (i1 takes one byte).
int64_t elementByteSize(ElementType t);
/// Bit width of an integer type (i1 -> 1, i8/u8 -> 8, ...).
int integerBitWidth(ElementType t);

/// Rounds an f64 to the nearest value representable in float type `t`
/// (round-to-nearest-even; f64 is returned unchanged).
double roundToFloatType(double v, ElementType t);
/// Wraps an exact integer to the two's-complement range of integer type `t`;
/// for i1, any non-zero value becomes 1.
int64_t wrapToIntegerType(int64_t v, ElementType t);

} // namespace xs

#endif // XSTITCH_IR_ELEMENTTYPE_H
