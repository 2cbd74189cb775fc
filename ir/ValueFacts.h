#ifndef XSTITCH_IR_VALUEFACTS_H
#define XSTITCH_IR_VALUEFACTS_H

// Facts about a value's elements that hold for every input, read off the ops
// that define it. Backends ask them to pick cheaper code that is exact under
// the fact (exp of an argument known to be at most zero needs no overflow
// path); each fact is structural, so it survives every shape and dim value.

#include "ir/IR.h"

namespace xs {

/// True when every element of `value` is <= 0 or NaN because it is
/// a - broadcast(reduce_max(a)) with the broadcast putting each maximum back
/// over the elements it was taken from (softmax's argument of exp).
bool isAtMostItsMaximum(const Value &value);

} // namespace xs

#endif // XSTITCH_IR_VALUEFACTS_H
