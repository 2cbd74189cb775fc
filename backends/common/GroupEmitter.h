#ifndef XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H
#define XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H

// The per-block loops of each mapping kind of KernelPlan.h (element-wise in
// GroupEmitter.cpp, reductions in RowReductionEmitter.cpp and
// ColumnReductionEmitter.cpp, scans in ScanEmitter.cpp and TopKEmitter.cpp).
//
// Block layout (the planner's grid must match):
//   Elementwise: rows x cols of the dominant's result, split where the
//     trailing dims' product is the mapping's cols (usually the last dim);
//     block b covers rows [r*rowsPerBlock, ...) and, with colsPerBlock > 0,
//     cols [c*colsPerBlock, ...), where r = b / colBlocks, c = b % colBlocks
//     and colBlocks = ceil(cols / colsPerBlock) (1 when colsPerBlock is 0).
//   RowReduce: block b reduces rows [b*rowsPerBlock, ...) (colsPerBlock 0).
//   RowPartial: block b reduces columns [c*colsPerBlock, ...) of row
//     b / chunks, c = b % chunks, into partial [row, c] (chunks =
//     ceil(cols / colsPerBlock)).
//   RowCombine: block b combines the partials of rows [b*rowsPerBlock, ...).
//   ColumnReduce / BatchColumnReduce: block b reduces columns
//     [c*colsPerBlock, ...) of batch index b / colBlocks, c = b % colBlocks.
//   Generic: block b computes result elements [b*rowsPerBlock, ...).
//   ColumnPartial: block b reduces rows [b*rowsPerBlock, ...) of every column
//     into partials row b.
//   ColumnCombine: block b combines the partials of columns
//     [b*colsPerBlock, ...).
//   Scan: block b owns rows [r*rowsPerBlock, ...) as Elementwise does and,
//     with colsPerBlock > 0, the strip [c*colsPerBlock, ...) of the
//     columns after the scanned dim, r = b / strips, c = b % strips; their
//     lines (ScanEmitter.cpp, TopKEmitter.cpp) go to the block's lanes in
//     turn. A top_k's rows and columns are of its result (k per line).
// Blocks past the end do nothing.

#include <functional>
#include <vector>

#include "backends/common/ElementGenerator.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/Target.h"
#include "transforms/KernelPlan.h"

namespace xs {

/// A value the group writes to memory at `base`: the whole tensor (a result
/// or global scratch) or, when `blockLocal`, the block's tile of it (a block
/// buffer), stored at `base[linear - origin]`. The block emitter sets
/// `origin` to the first element of the tile before storing.
struct GroupOutput {
  const Value *value = nullptr;
  llvm::Value *base = nullptr;
  bool blockLocal = false;
  llvm::Value *origin = nullptr;
};

/// One group's emission: the generator, the group and its outputs.
struct GroupEmission {
  ElementGenerator &gen;
  const PlanGroup &group;
  std::vector<GroupOutput> outputs;
  const TargetDescription &description;
  /// Partial and combine mappings: the partial states (of the accumulation
  /// type, KernelPlan::partials).
  llvm::Value *partials = nullptr;
  /// A staged transpose's block buffer (PlanBuffer::staging), or null.
  llvm::Value *staging = nullptr;
};

/// The value of reduction `op` at result index `resultIndex`, looping over
/// every reduced index (the Generic mapping; also a reduction computed inside
/// another group).
llvm::Value *emitReduceAt(ElementGenerator &gen, const Operation &op,
                          const std::vector<llvm::Value *> &resultIndex);

/// The columns block `blockId` covers when a mapping splits its columns into
/// strips of `colsPerBlock` (0: no split, the whole [0, cols)), and the index
/// of the row (or batch) the block belongs to. See the layout above.
struct ColumnStrip {
  llvm::Value *outerBlock = nullptr; // row block (Elementwise) or batch index
  llvm::Value *begin = nullptr;
  llvm::Value *end = nullptr;
};
ColumnStrip columnStrip(llvm::IRBuilder<> &b, llvm::Value *blockId, llvm::Value *cols,
                        int64_t colsPerBlock);
/// The same where consecutive blocks take consecutive row blocks of `rows`
/// (of rowsPerBlock each) within a strip (ThreadMapping::rowBlocksFirst).
ColumnStrip columnStripRowsFirst(llvm::IRBuilder<> &b, llvm::Value *blockId, llvm::Value *rows,
                                 int64_t rowsPerBlock, llvm::Value *cols, int64_t colsPerBlock);

/// The lanes a group's inner loops vectorize with when it streams 16-bit
/// floats (f16, bf16: stored narrow, computed in f32): the mapping's vector
/// width, a full vector register of them. LLVM's cost model picks 4 lanes
/// for f16 rows on AVX-512 (the conversions look expensive to it), half the
/// speed of the planned width for a LayerNorm. 0 otherwise: the vectorizer
/// decides.
int64_t narrowVectorWidth(const PlanGroup &group);

/// How a block's lanes share its rows (ThreadMapping::rowLanes). Unpacked,
/// every lane works on each row, lane l taking columns l, l + lanes, ...;
/// packed, row group g (of `width` lanes) takes rows g, g + groups, ... and
/// its lane l columns l, l + width, ... One lane (CPU): neither.
struct RowLanes {
  bool split = false;            // several lanes (GPU)
  bool packed = false;           // row groups take rows in turn
  int64_t rowLanes = 0;          // ThreadMapping::rowLanes when packed
  llvm::Value *lane = nullptr;   // the lane within its row group (split)
  llvm::Value *width = nullptr;  // lanes of a row group (split)
  llvm::Value *group = nullptr;  // the lane's row group (packed)
  llvm::Value *groups = nullptr; // row groups of the block (packed)
};
RowLanes rowLanesOf(KernelContext &ctx, const ThreadMapping &mapping);

/// Loops over the block's rows [begin, end) that this lane's row group takes,
/// calling `body` with the row and its multi-index in `keptShape`.
LoopResult emitBlockRows(
    ElementGenerator &gen, const RowLanes &lanes, llvm::Value *begin, llvm::Value *end,
    const std::vector<DimExpr> &keptShape,
    const std::function<void(llvm::Value *row, const std::vector<llvm::Value *> &kept)> &body);

/// What emitRowColumns() calls for each column of a row this lane takes: the
/// column, the row's start (row * cols, so that the column's row-major
/// position is rowStart + col) and the carried values.
using RowColumnBody = std::function<std::vector<llvm::Value *>(
    llvm::Value *col, llvm::Value *rowStart, llvm::ArrayRef<llvm::Value *> carried)>;

/// Loops over the columns [begin, end) of row `row` (of `cols` columns) that
/// this lane takes (RowLanes). One lane (CPU): every column in order, in one
/// loop whose latch the result holds. Several (GPUs): lane l of a row's
/// `width` takes columns l, l + width, ...; but with `vectorWidth` V > 1,
/// when cols, begin and end are multiples of V and every lane gets a run at
/// least, lane l takes runs of V adjacent columns [(l + i*width)*V, ...)
/// instead, each run emitted unrolled with positions LLVM can prove are
/// multiples of V at its start: its loads and stores of global memory merge
/// into vector accesses (128 bits on NVIDIA, ThreadMapping::vectorWidth).
LoopResult emitRowColumns(KernelContext &ctx, const RowLanes &lanes, int64_t vectorWidth,
                          llvm::Value *row, llvm::Value *cols, llvm::Value *begin, llvm::Value *end,
                          llvm::ArrayRef<llvm::Value *> initial, const RowColumnBody &body);

/// Merges a row's lane states over its row group (RowLanes): the block, a
/// warp, or nothing (one lane per row, or the CPU).
std::vector<llvm::Value *> mergeRowLanes(KernelContext &ctx, const RowLanes &lanes,
                                         llvm::ArrayRef<llvm::Value *> state,
                                         const LaneCombine &combine);

/// Sets the tile origin of every block-local output of shape `shape`.
void setTileOrigins(GroupEmission &group, const std::vector<DimExpr> &shape, llvm::Value *origin);

/// An output's element computed by the caller's own route, or null for the
/// element generator's at the index.
using OutputElement = std::function<llvm::Value *(const Value *output)>;

/// Stores every output of the group whose value has the shape `shape` at
/// multi-index `index` (row-major position `linear`).
void storeGroupOutputs(GroupEmission &group, const std::vector<DimExpr> &shape,
                       const std::vector<llvm::Value *> &index, llvm::Value *linear,
                       const OutputElement &element = nullptr);

/// One block of each mapping kind.
void emitElementwiseBlock(GroupEmission &group, llvm::Value *blockId);
/// RowReduce and RowPartial.
void emitRowReduceBlock(GroupEmission &group, llvm::Value *blockId);
void emitRowCombineBlock(GroupEmission &group, llvm::Value *blockId);
/// Row reductions of one stage over operands of the same shape and the same
/// rows, in one pass over their rows (one column loop for all of them).
void emitRowReduceSiblings(std::vector<GroupEmission> &groups, llvm::Value *blockId);
/// Column partials of one stage over the same rows and columns, in one pass
/// over their rows.
void emitColumnPartialSiblings(std::vector<GroupEmission> &groups, llvm::Value *blockId);
void emitColumnReduceBlock(GroupEmission &group, llvm::Value *blockId);
void emitColumnPartialBlock(GroupEmission &group, llvm::Value *blockId);
void emitColumnCombineBlock(GroupEmission &group, llvm::Value *blockId);
void emitGenericBlock(GroupEmission &group, llvm::Value *blockId);
/// cumsum (ScanEmitter.cpp) and top_k (TopKEmitter.cpp), which it calls.
void emitScanBlock(GroupEmission &group, llvm::Value *blockId);
void emitTopKBlock(GroupEmission &group, llvm::Value *blockId);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_GROUPEMITTER_H
