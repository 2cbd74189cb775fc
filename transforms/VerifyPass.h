#ifndef XSTITCH_TRANSFORMS_VERIFYPASS_H
#define XSTITCH_TRANSFORMS_VERIFYPASS_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Checks the IR (Verifier.h) and changes nothing. Accepts unknown result types (text before shape
/// inference); fails with the first violation. Returns whether the function changed.
absl::StatusOr<bool> runVerifyPass(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_VERIFYPASS_H
