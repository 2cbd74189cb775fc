#ifndef XSTITCH_TRANSFORMS_CSE_H
#define XSTITCH_TRANSFORMS_CSE_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Merges ops of the same kind with the same operands and attributes (commutative operands in
/// either order). Constants with equal values and types merge too. Precondition: types known.
/// Returns whether the function changed.
absl::StatusOr<bool> runCSE(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_CSE_H
