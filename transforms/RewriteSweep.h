#ifndef XSTITCH_TRANSFORMS_REWRITESWEEP_H
#define XSTITCH_TRANSFORMS_REWRITESWEEP_H

// The driver of the local rewrite passes (algebraic-simplify,
// sink-reshapes, strength-reduce): each op may be replaced by a value
// its rewrite returns (creating ops before it as needed); sweeps repeat
// until one replaces nothing, since a rewrite can expose another.

#include <functional>

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// What replaces `op`, or nullptr to leave it; an error stops the sweep.
using OpRewrite = std::function<absl::StatusOr<Value *>(Function &function, Operation &op)>;

/// Applies `rewrite` to every op, replacing the uses of each op it answers
/// for and erasing that op, until a sweep replaces nothing. Returns whether
/// the function changed.
absl::StatusOr<bool> rewriteToFixpoint(Function &function, const OpRewrite &rewrite);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_REWRITESWEEP_H
