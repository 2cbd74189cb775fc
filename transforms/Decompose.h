#ifndef XSTITCH_TRANSFORMS_DECOMPOSE_H
#define XSTITCH_TRANSFORMS_DECOMPOSE_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Rewrites composite ops into primitives: layer_norm, rms_norm, softmax, log_softmax
/// (max-subtracted, numerically stable) and gelu (erf or tanh form), with the formulas of
/// docs/ir.md. Postcondition: no Composite-category op is left. Precondition: types known. Returns
/// whether the function changed.
absl::StatusOr<bool> runDecompose(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_DECOMPOSE_H
