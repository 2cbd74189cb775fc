#ifndef XSTITCH_IR_VALUEFACTS_H
#define XSTITCH_IR_VALUEFACTS_H

// Facts about a value's elements that hold for every input, read off the ops
// that define it. Backends ask them to pick cheaper code that is exact under
// the fact (exp of an argument known to be at most zero needs no overflow
// path); each fact is structural, so it survives every shape and dim value.

#include <optional>

#include "ir/IR.h"

namespace xs {

/// The value every element of `value` holds, when it is a constant whose
/// elements all hold the same one (a scalar literal, or a dense literal of
/// equal elements).
std::optional<double> splatValue(const Value &value);

/// Whether `op` is a constant written as one scalar literal, which stands
/// for its value in every element of whatever shape its type gives (and so
/// can be made again in any other shape).
bool isScalarConstant(const Operation &op);

/// True when every element of `value` is <= 0 or NaN because it is
/// a - broadcast(reduce_max(a)) with the broadcast putting each maximum back
/// over the elements it was taken from (softmax's argument of exp).
bool isAtMostItsMaximum(const Value &value);

/// True when `max`, a float reduce_max of `function`, is softmax's maximum,
/// whose NaN propagation and zero sign no value of the function can show:
/// it is not a result, its only use is a broadcast d with x - d at most its
/// maximum (isAtMostItsMaximum), each such difference is used only by exp,
/// and each exp only by its sum over the same dims and by its division by
/// that sum broadcast back. A NaN in a row then reaches every output of the
/// row through the sum, whatever the maximum, and exp(+0) = exp(-0); so the
/// maximum may be any value at least every number of the row.
bool isSoftmaxMaximum(const Function &function, const Operation &max);

/// F16 or BF16 when every use of `value` (a float of `function`) ends,
/// through products, quotients, reciprocals, broadcasts and sums of values
/// derived from it alone, in a cast to f16 or bf16 (F16 if any goes to f16),
/// and nothing of it is a result otherwise: softmax's exp under mixed
/// precision. A relative error of e in `value` then reaches each rounded
/// result as a few e (sums of one sign keep it; each product, quotient or
/// reciprocal adds one): softmax's e / sum(e) has at most 2e before its
/// rounding to 16 bits.
std::optional<ElementType> roundedOnlyTo16Bits(const Function &function, const Value &value);

/// True when every element of `indices` (an integer value) lies in
/// [0, size) for every size of at least 1: clamped as a resize's taps are,
/// min(max(i, 0), size - 1) with size - 1 a dim_value, either way round and
/// through broadcasts, reshapes and transposes; or literals and iotas that
/// fit; or such indices shifted by a constant towards the side that is
/// clamped (max(i - 1, 0), min(i + 1, size - 1)). A gather by such indices reads no element outside
/// its dim, and is refused by the interpreter only where the dim is empty and the indices are not.
bool isClampedIndex(const Value &indices, const DimExpr &size);

} // namespace xs

#endif // XSTITCH_IR_VALUEFACTS_H
