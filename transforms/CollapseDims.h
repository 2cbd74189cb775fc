#ifndef XSTITCH_TRANSFORMS_COLLAPSEDIMS_H
#define XSTITCH_TRANSFORMS_COLLAPSEDIMS_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// The last two dims of a region's values become one dim of their product
/// where every op of the region treats them as one: element-wise ops,
/// broadcasts that keep both or add both, reductions over both or neither,
/// iotas along neither. ConvNeXt's LayerNorm over the channels of
/// f32[B, C, H, W] then runs on f32[B, C, H*W]: its element-wise rows are
/// H*W long instead of W, and its statistics are read back at the row's own
/// column rather than at an index divided into h and w. Repeated while a
/// region merges (InstanceNorm's [N, C, H, W] becomes [N, C*H*W]).
///
/// Only regions that broadcast or reduce merge (element-wise ops alone walk
/// their elements in order whatever the dims), and values keep a dim of
/// rows (a region of rank 2 stays). A region ends at values whose layout
/// costs nothing to change: parameters, constants and reshapes are read
/// through a reshape to the merged shape (a splat is made again in it), as
/// long as every reader of theirs is in the region; a result is returned
/// through a reshape back to its declared shape. The planner makes both
/// views. Any other op on the two dims (a transpose, slice, pad, gather,
/// dot, ...) keeps the region as it is. Dead ops are erased first. Values
/// are unchanged. Precondition: types known. Returns whether the function
/// changed.
absl::StatusOr<bool> runCollapseDims(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_COLLAPSEDIMS_H
