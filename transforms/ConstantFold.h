#ifndef XSTITCH_TRANSFORMS_CONSTANTFOLD_H
#define XSTITCH_TRANSFORMS_CONSTANTFOLD_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Replaces an op whose operands are all constants (and whose result has a static shape of at most
/// 4096 elements, so folding cannot blow up the IR) by a constant holding its value, computed with
/// the reference interpreter's evaluateOp. Splat constants of any shape fold element-wise ops into
/// splats. Precondition: types known. Returns whether the function changed.
absl::StatusOr<bool> runConstantFold(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_CONSTANTFOLD_H
