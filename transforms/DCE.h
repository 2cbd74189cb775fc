#ifndef XSTITCH_TRANSFORMS_DCE_H
#define XSTITCH_TRANSFORMS_DCE_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Removes ops whose result is used by no op and no function result. Precondition: types known.
/// Returns whether the function changed.
absl::StatusOr<bool> runDCE(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_DCE_H
