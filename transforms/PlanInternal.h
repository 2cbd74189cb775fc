#ifndef XSTITCH_TRANSFORMS_PLANINTERNAL_H
#define XSTITCH_TRANSFORMS_PLANINTERNAL_H

// Pieces of planProgram shared by its files (not a public interface):
// PlanMapping.cpp chooses thread mappings and variants, PlanHost.cpp fills
// the host plan's symbols and liveness slots, PlanProgram.cpp partitions the
// function and builds kernel bodies.

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "ir/IR.h"
#include "transforms/KernelPlan.h"
#include "transforms/TargetDescription.h"

namespace xs::plan {

/// The iteration space of an op, collapsed to [batch,] rows x cols.
struct MappingShape {
  MappingKind kind = MappingKind::Elementwise;
  DimExpr batch = DimExpr(1);
  DimExpr rows = DimExpr(1);
  DimExpr cols = DimExpr(1);
  /// Elements each output reduces over in a row of the mapping (1 when
  /// nothing is reduced). Generic mappings have one output per row.
  DimExpr rowWork = DimExpr(1);
};

/// Classifies `op` (a kernel's dominant) by the dims it reduces; non
/// reductions map element-wise over their result.
MappingShape classifyMapping(const Operation &op);

/// The variants of a one-group, one-phase, one-stage kernel whose dominant is
/// `dominant` (an op of the kernel body). The last variant has no predicates.
/// Short rows are packed into blocks of about `packElements` elements (0:
/// the target's packedRowElements).
std::vector<KernelVariant> planVariants(const Operation &dominant, const TargetDescription &target,
                                        int64_t packElements = 0);

/// The variant of a column reduction over many rows that splits its rows
/// over blocks (a ColumnPartial group whose partials a ColumnCombine group
/// finishes; the stitch planner adds the combine), with the predicate on the
/// rows that makes it worth it; nullopt when the op is not such a reduction
/// or its rows are known to be too few.
std::optional<KernelVariant> splitColumnVariant(const Operation &dominant,
                                                const TargetDescription &target);

/// The variant of a row reduction over few, long rows that splits each row
/// into chunks over blocks (a RowPartial group whose partials a RowCombine
/// group finishes; the stitch planner adds the combine), with the
/// predicates on rows and columns that make it worth it; nullopt when the
/// op is not such a reduction or its shape is known not to need it.
std::optional<KernelVariant> splitRowVariant(const Operation &dominant,
                                             const TargetDescription &target);

/// Bytes of a tensor of `type` in memory (i1 takes one byte).
DimExpr tensorBytes(const TensorType &type);

/// Fills `host.symbols`: every symbol of the parameter types in order of
/// appearance, then every other symbol of `types` and `exprs` in order.
/// A symbol that the input shapes do not determine is an error at the
/// location of the first value whose type mentions it.
absl::Status collectSymbols(const Function &function, const std::vector<DimExpr> &planExprs,
                            HostPlan &host);

/// Assigns slots to the Temporary buffers of `host` by liveness over its
/// steps: a temporary takes the lowest slot whose buffers are all dead by
/// the step that defines it. Sets HostBuffer::slot and numSlots.
void assignSlots(HostPlan &host);

} // namespace xs::plan

#endif // XSTITCH_TRANSFORMS_PLANINTERNAL_H
