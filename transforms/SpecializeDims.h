#ifndef XSTITCH_TRANSFORMS_SPECIALIZEDIMS_H
#define XSTITCH_TRANSFORMS_SPECIALIZEDIMS_H

// Static specialization: a copy of a function with some of its symbolic dims
// replaced by constants everywhere (parameter and result types, dim
// attributes, the host-symbol computation), as a static-shape compiler sees
// it. It is the baseline the symbolic compile is measured against
// (xstitch-run --specialize, the C API's specialize option): the planner
// then knows every size exactly. A specialized executable runs only at those
// dims (the constraints say so at each call).

#include <memory>

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// A module holding `function` with the symbols of `dims` replaced by their
/// values, and the facts `SYM == value` recorded; run the default pipeline
/// on it before planning, so that what the constants make foldable folds.
/// A negative value, or one that contradicts the function's constraints, is
/// an InvalidArgument error naming the symbol.
absl::StatusOr<std::unique_ptr<Module>> specializeDims(const Function &function,
                                                       const DimBindings &dims);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SPECIALIZEDIMS_H
