#ifndef XSTITCH_TRANSFORMS_AMPLIFIEDCHAINS_H
#define XSTITCH_TRANSFORMS_AMPLIFIEDCHAINS_H

// Which element-wise chains the stitch planner computes once, as dominants of
// their own, because their readers would otherwise compute them again at a
// high price: for every element of a broadcast or gather reading each many
// times over, or at every column a gather along the row picks
// (StitchPlanner.cpp, step 1 of docs/stitching.md).

#include "ir/IR.h"

namespace xs::plan {

/// Whether `op` (in `body`) is a chain of element-wise ops whose every
/// element is read for kMinAmplification elements or more of a reader (a
/// broadcast of it, or a gather taking it as indices: the taps and weights
/// of a resize to a size known at run time; through transposes, reshapes
/// and gathers' results) and which costs at least
/// kMinAmplifiedChainCost, or holds a transcendental where the broadcast
/// varies along its last dim; or a gather whose indices are such a chain,
/// or the last transpose or reshape of one, read so (T5's bias per head,
/// gathered by its position buckets and transposed to [heads, S, S]: what
/// the readers read, in their layout, rather than i64 indices and a gather
/// per element). Such a value is computed once, as a dominant, not once per
/// element read.
bool isAmplifiedChain(const Operation &op, const Function &body);

/// Whether `op` is an element-wise op of rank 2 or more, or a reshape or
/// concat of such ops, whose value a gather along its last dim reads (a
/// resize's rows interpolated along H, read at the taps along W; with
/// half-pixel centres, each phase's rows concatenated and reshaped): computed once per row into the
/// block's buffer, its row is read with vector loads and gathered from the buffer; inlined into the
/// gather, every element read would compute it again at a gathered column, reading its own operands
/// with gathers from memory.
bool isGatheredAlongRows(const Operation &op, const Function &body);

} // namespace xs::plan

#endif // XSTITCH_TRANSFORMS_AMPLIFIEDCHAINS_H
