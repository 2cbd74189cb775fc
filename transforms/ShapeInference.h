#ifndef XSTITCH_TRANSFORMS_SHAPEINFERENCE_H
#define XSTITCH_TRANSFORMS_SHAPEINFERENCE_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Infers every result type from its operands (TypeRules.h) in DimUnifier::Mode::Collect, recording
/// each required equality of symbolic dims in the function's ConstraintStore, then rewrites every
/// type, attribute dim and declared result type into canonical form under the store. Precondition:
/// parameter types known. Postcondition: every result type known and the function verifies.
/// Declared result types are kept only as checks: a declared type that cannot equal the inferred
/// one is an error at the op. Returns whether the function changed.
absl::StatusOr<bool> runShapeInference(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SHAPEINFERENCE_H
