#ifndef XSTITCH_IR_SCALARCONVERSIONS_H
#define XSTITCH_IR_SCALARCONVERSIONS_H

// Exact scalar conversions between the interpreter's two storage forms (f64
// for float types, int64 for integer and i1 types), with the semantics of
// `cast` in docs/ir.md. Shared by HostTensor and the reference interpreter.

#include <cstdint>

#include "ir/ElementType.h"

namespace xs {

/// Float to an integer or i1 type. Integer types: truncates toward zero and
/// wraps to the width (modulo 2^width, also beyond the int64 range); NaN and
/// infinities give 0. i1: `v != 0` (NaN is not 0, so it gives 1).
int64_t convertDoubleToInteger(double v, ElementType to);

/// An exact integer to a float type, rounded once to nearest even (no double
/// rounding through f64 for large magnitudes).
double convertIntegerToFloat(int64_t v, ElementType to);

/// The smallest and largest values of an integer or i1 type.
int64_t integerTypeMin(ElementType t);
int64_t integerTypeMax(ElementType t);

} // namespace xs

#endif // XSTITCH_IR_SCALARCONVERSIONS_H
