#ifndef XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H
#define XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H

// Transposes of the last two dims without strided reads (also of one dim
// moved last, the dims after it collapsed: attention's K^T of [B, S, H, D]
// is the 2-D transpose of each batch's [S, H*D]). The element loop
// walks the output's rows and so reads the input with a stride: a gather per
// vector on CPUs, a memory transaction per lane on GPUs. Instead:
// - CPUs (one lane per block): through registers. Each V x V tile (V the
//   mapping's vector width) moves with V vector loads along the input's
//   rows, a network of log2(V) rounds of two-input shuffles, and V vector
//   stores along the output's rows.
// - GPUs: through the block's staging tile (PlanBuffer::staging, shared
//   memory). The block's lanes read its input tile along the input's rows
//   into the staging tile, a block barrier, then write it along the
//   result's rows: adjacent lanes touch adjacent elements in both, and the
//   tile's padding row spreads a column over every bank.

#include <functional>

#include "backends/common/GroupEmitter.h"

namespace xs {

/// Whether the group's block can be emitted by emitTransposeTiles.
bool isRegisterTranspose(GroupEmission &group);

/// The element loop over output rows [rowBegin, rowEnd) x columns
/// [colBegin, colEnd) of a block.
using ElementLoop = std::function<void(llvm::Value *rowBegin, llvm::Value *rowEnd,
                                       llvm::Value *colBegin, llvm::Value *colEnd)>;

/// Emits the block's tile [rowBegin, rowEnd) x [colBegin, colEnd) of the
/// output (rows: the leading dims collapsed, cols: the last dim) as V x V
/// register transposes. Where the transposed dims or the block's bounds are
/// not multiples of V at run time (a branch picks), the whole tiles of each
/// run of rows sharing their leading index still move through registers
/// and `elementLoop` covers the rest: fewer than V rows and columns of each
/// run.
void emitTransposeTiles(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                        llvm::Value *colBegin, llvm::Value *colEnd, const ElementLoop &elementLoop);

/// Whether the group's block can be emitted by emitStagedTranspose: a lone
/// transpose of a block (transposedBlockStart) with a staging tile (GPUs).
bool isStagedTranspose(GroupEmission &group);

/// Emits the block's tile [rowBegin, rowEnd) x [colBegin, colEnd) of the
/// output (as emitTransposeTiles) through the staging tile.
void emitStagedTranspose(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                         llvm::Value *colBegin, llvm::Value *colEnd);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H
