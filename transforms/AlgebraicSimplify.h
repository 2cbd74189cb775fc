#ifndef XSTITCH_TRANSFORMS_ALGEBRAICSIMPLIFY_H
#define XSTITCH_TRANSFORMS_ALGEBRAICSIMPLIFY_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Local identities that never change a value: x+0, x-0, x*1, x/1, neg(neg(x)), not(not(x)),
/// reshape to the same shape, transpose by the identity, transpose of transpose (composed perm),
/// broadcast to the same shape with identity dims, slice of the whole tensor, cast to the same
/// type, select with a splat-constant condition, a sum, product, maximum or minimum over dims
/// of size 1 (a reshape: PyTorch's unbiased std multiplies the count of a dim as
/// reduce_prod(dim_value) of one element). x*0 is not folded for floats (NaN and inf).
/// Precondition: types known. Returns whether the function changed.
absl::StatusOr<bool> runAlgebraicSimplify(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_ALGEBRAICSIMPLIFY_H
