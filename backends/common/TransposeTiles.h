#ifndef XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H
#define XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H

// Transposes through registers: a group that only swaps the last two dims
// of a tensor in memory moves each V x V tile (V the mapping's vector width)
// with V vector loads along the input's rows, a network of log2(V) rounds of
// two-input shuffles, and V vector stores along the output's rows. The
// element loop would read the input with a stride (a gather per vector);
// this reads and writes whole vectors. CPU targets (one lane per block).

#include <functional>

#include "backends/common/GroupEmitter.h"

namespace xs {

/// Whether the group's block can be emitted by emitTransposeTiles.
bool isRegisterTranspose(GroupEmission &group);

/// Emits the block's tile [rowBegin, rowEnd) x [colBegin, colEnd) of the
/// output (rows: the leading dims collapsed, cols: the last dim) as V x V
/// register transposes when both transposed dims are multiples of V at run
/// time, else `elementLoop()` (a branch picks).
void emitTransposeTiles(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                        llvm::Value *colBegin, llvm::Value *colEnd,
                        const std::function<void()> &elementLoop);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_TRANSPOSETILES_H
