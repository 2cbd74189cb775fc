#ifndef XSTITCH_TRANSFORMS_SINKRESHAPES_H
#define XSTITCH_TRANSFORMS_SINKRESHAPES_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Reshapes move out of the planner's way, toward the results:
///   - an element-wise op whose operands are reshapes of values of one
///     shape, or splat constants, runs on that shape, and the reshape moves
///     to its result: add(reshape(v) : [R, 1], c) -> reshape(add(v, c')).
///     A row's mean kept as f32[R, 1] (ONNX's keepdims, Unsqueeze) is then
///     computed on [R]; GroupNorm's activation after the normalization
///     (SiLU of [B, G, C/G*H*W] reshaped back to [B, C, H, W]) runs in the
///     statistics' rows, in their blocks;
///   - a broadcast of a reshape that only adds or drops dims of size 1 (of
///     an operand that has none) broadcasts its operand directly, the dims
///     mapping composed: broadcast(reshape(v: [R]) : [R, 1]) : [R, D] ->
///     broadcast(v, dims = [0]) : [R, D];
///   - a reshape of a reshape is one reshape, none when it gives back the
///     source's shape.
/// A row's statistics then reach their broadcast back over the row as in
/// hand-written IR, and stitch Regionally. Values are unchanged (the same
/// ops on the same elements). Precondition: types known. Returns whether
/// the function changed.
absl::StatusOr<bool> runSinkReshapes(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SINKRESHAPES_H
