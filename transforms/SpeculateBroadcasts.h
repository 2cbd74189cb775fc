#ifndef XSTITCH_TRANSFORMS_SPECULATEBROADCASTS_H
#define XSTITCH_TRANSFORMS_SPECULATEBROADCASTS_H

// Broadcast speculation, as BladeDISC does it. Two symbolic dims that meet
// in a numpy broadcast (`%x: f32[N, 4]` plus `%y: f32[M, 4]`) leave a fact
// `D == broadcast(N, M)` (ir/Constraints.h): at a call N == M, or one of
// them is 1. Which one decides the code (an element-wise add, or a row
// broadcast), so the compile driver compiles one variant per relation and a
// call runs the first whose assumptions hold at its dims:
//
//   variant 0: M -> N, D -> N    assumes M == N   (every pair equal first)
//   variant 1: N -> 1, D -> M    assumes N == 1
//   variant 2: M -> 1, D -> N    assumes M == 1
//
// A variant is the function with those symbols substituted
// (transforms/SpecializeDims.h), so the planner sees no broadcast fact.
// Several facts multiply their relations; past `maxVariants` the relations
// with fewer dims of 1 are kept, and a call that none covers is an error
// that names the dims.

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/DimPredicate.h"
#include "ir/HostPlan.h"
#include "ir/IR.h"
#include "transforms/SpecializeDims.h"

namespace xs {

struct BroadcastVariant {
  /// The symbols the variant replaces (operands and results of the facts).
  DimSubstitution substitution;
  /// What it assumes of the function's symbols: `M == N`, `N == 1`.
  std::vector<DimPredicate> assumptions;
  /// "M == N, N == 1" (empty: none), for reports.
  std::string str() const;
};

/// At most this many variants by default (a compile per variant).
inline constexpr int kDefaultMaxBroadcastVariants = 16;

/// The variants of `function` in the order a call tries them: every pair
/// equal first, then one dim of 1, then two, ... Relations the function's
/// facts refute (a range 2 <= N with N == 1) are left out. Empty when the
/// function has no broadcast fact. A fact whose operands are neither
/// symbols nor constants is an InvalidArgument error.
absl::StatusOr<std::vector<BroadcastVariant>>
broadcastVariants(const Function &function, int maxVariants = kDefaultMaxBroadcastVariants);

/// The function of one variant, through the default pipeline (what it
/// makes foldable folds: broadcasts to the same shape disappear).
absl::StatusOr<std::unique_ptr<Module>> speculatedFunction(const Function &function,
                                                           const BroadcastVariant &variant);

/// The index of the first variant whose assumptions hold at `dims` (the
/// function's parameter symbols; --dim values), or 0 where they leave the
/// assumptions open or none holds: the variant a run at `dims` takes.
size_t variantAt(const Function &function, const std::vector<BroadcastVariant> &variants,
                 DimBindings dims);

/// The host plan a speculated program's dispatcher binds a call's dims with
/// (CompiledProgram::speculations): the parameters and results with their
/// types, the function's facts and host symbols, no steps. Its symbols are
/// those the variants' assumptions mention.
HostPlan speculationSignature(const Function &function,
                              const std::vector<BroadcastVariant> &variants);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_SPECULATEBROADCASTS_H
