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

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Symbols and the dim expressions that replace them.
using DimSubstitution = absl::flat_hash_map<std::string, DimExpr>;

/// Records the substitution's facts `SYM == expr` in `store` and checks its
/// divisibility and range facts against the constants that follow; an
/// InvalidArgument error names a fact the substitution contradicts.
absl::Status recordSubstitution(ConstraintStore &store, const DimSubstitution &map);

/// A module holding `function` with the symbols of `map` replaced by their
/// expressions everywhere and the facts `SYM == expr` recorded (broadcast
/// speculation's variants are such copies: transforms/SpeculateBroadcasts.h).
/// A substitution that contradicts the function's facts is an
/// InvalidArgument error that names the fact.
absl::StatusOr<std::unique_ptr<Module>> substituteDims(const Function &function,
                                                       const DimSubstitution &map);

/// A module holding `function` with the symbols of `dims` replaced by their
/// values, and the facts `SYM == value` recorded; run the default pipeline
/// on it before planning, so that what the constants make foldable folds.
/// A negative value, or one that contradicts the function's constraints, is
/// an InvalidArgument error naming the symbol.
absl::StatusOr<std::unique_ptr<Module>> specializeDims(const Function &function,
                                                       const DimBindings &dims);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SPECIALIZEDIMS_H
