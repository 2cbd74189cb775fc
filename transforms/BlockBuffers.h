// What a block of a kernel variant allocates in block buffers (shared
// memory on GPUs, the worker's stack on x86), phase by phase. The planner
// puts these bounds in the host plan (HostLaunchVariant); the kernel
// emitter allocates exactly this much and checks that it did, so a launch
// can ask for what a block uses and refuse what the GPU cannot give.

#ifndef XSTITCH_TRANSFORMS_BLOCKBUFFERS_H
#define XSTITCH_TRANSFORMS_BLOCKBUFFERS_H

#include <cstdint>
#include <vector>

#include "ir/DimExpr.h"
#include "transforms/KernelPlan.h"
#include "transforms/TargetDescription.h"

namespace xs {

/// The groups of a stage in batches emitted together: row reductions (or
/// column partials) with the same mapping over operands of the same type
/// (shape and element type: one vector width for the shared loop), one
/// block per grid block, form one batch (they read the same rows); every
/// other group is a batch of its own. Batches keep the stage's order of
/// first members.
std::vector<std::vector<int>> siblingBatches(const KernelVariant &variant,
                                             const std::vector<int> &groups);

/// The bytes of each state a column reduction keeps per accumulator, as
/// the emitter lays them out: the accumulation type (columnAccumulationType;
/// f16 and bf16 computed in f32, i1 in a byte), then argmax/argmin's i64
/// position.
std::vector<int64_t> columnStateBytes(const Operation &reduction);

/// `bytes` rounded up to kBlockBufferAlignment, as every block buffer is.
DimExpr alignedBlockBufferBytes(const DimExpr &bytes);

/// The bytes of block buffers a block of each phase of `variant` allocates:
/// the tiles its groups write (the last block buffer planned for a value;
/// tiles kept in a result take none), transpose staging tiles, and the
/// accumulator tiles of its column reductions (columnAccumulatorTile, one
/// set per batch of siblings), each rounded up to kBlockBufferAlignment.
/// A function running phases [first, last] allocates their sum.
std::vector<DimExpr> phaseBlockBufferBytes(const KernelVariant &variant,
                                           const TargetDescription &target);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_BLOCKBUFFERS_H
