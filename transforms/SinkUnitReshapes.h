#ifndef XSTITCH_TRANSFORMS_SINKUNITRESHAPES_H
#define XSTITCH_TRANSFORMS_SINKUNITRESHAPES_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Reshapes that only add or drop dims of size 1 (what ONNX's keepdims,
/// Unsqueeze and Squeeze leave: a row's mean as f32[R, 1]) move out of the
/// planner's way:
///   - an element-wise op whose operands are such reshapes of values of one
///     shape, or splat constants, runs on that shape, and the reshape moves
///     to its result: add(reshape(v) : [R, 1], c) -> reshape(add(v, c'));
///   - a broadcast of such a reshape broadcasts its operand directly, the
///     dims mapping composed: broadcast(reshape(v: [R]) : [R, 1]) : [R, D]
///     -> broadcast(v, dims = [0]) : [R, D].
/// A row's statistics then reach their broadcast back over the row as in
/// hand-written IR, and stitch Regionally. Values are unchanged (the same
/// ops on the same elements). Reshapes whose operand has dims of size 1 of
/// its own stay. Precondition: types known. Returns whether the function
/// changed.
absl::StatusOr<bool> runSinkUnitReshapes(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SINKUNITRESHAPES_H
