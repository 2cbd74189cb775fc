#ifndef XSTITCH_IR_FLOATBITS_H
#define XSTITCH_IR_FLOATBITS_H

// The 16-bit float formats as bit patterns: IEEE binary16 (f16) and bfloat16
// (bf16). Encoding rounds once, to nearest with ties to even, straight from
// f64 (no double rounding through f32); overflow gives infinity and NaN stays
// a quiet NaN of the same sign. Decoding is exact.

#include <cstdint>

namespace xs {

uint16_t encodeF16(double v);
uint16_t encodeBF16(double v);
double decodeF16(uint16_t bits);
double decodeBF16(uint16_t bits);

} // namespace xs

#endif // XSTITCH_IR_FLOATBITS_H
