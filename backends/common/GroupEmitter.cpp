#include "backends/common/GroupEmitter.h"

#include "backends/common/LoopBuilder.h"
#include "backends/common/TypeLowering.h"

namespace xs {

ColumnStrip columnStrip(llvm::IRBuilder<> &b, llvm::Value *blockId, llvm::Value *cols,
                        int64_t colsPerBlock) {
  if (colsPerBlock <= 0)
    return {blockId, b.getInt64(0), cols};
  llvm::Value *width = b.getInt64(colsPerBlock);
  llvm::Value *strips = b.CreateUDiv(b.CreateAdd(cols, b.getInt64(colsPerBlock - 1)), width);
  // No columns: every block is past the end (avoid a division by zero).
  strips = emitMax(b, strips, b.getInt64(1));
  llvm::Value *begin = b.CreateMul(b.CreateURem(blockId, strips), width);
  return {b.CreateUDiv(blockId, strips), begin, emitMin(b, b.CreateAdd(begin, width), cols)};
}

void setTileOrigins(GroupEmission &group, const std::vector<DimExpr> &shape, llvm::Value *origin) {
  for (GroupOutput &output : group.outputs)
    if (output.blockLocal && output.value->type().shape() == shape)
      output.origin = origin;
}

void storeGroupOutputs(GroupEmission &group, const std::vector<DimExpr> &shape,
                       const std::vector<llvm::Value *> &index, llvm::Value *linear) {
  KernelContext &ctx = group.gen.context();
  group.gen.setElementPosition(shape, index, linear);
  for (const GroupOutput &output : group.outputs) {
    if (output.value->type().shape() != shape)
      continue;
    llvm::Value *value = group.gen.emit(output.value, index);
    llvm::Value *position = linear;
    if (output.blockLocal) {
      if (!output.origin) {
        ctx.fail("block buffer of " + output.value->name() + " has no tile origin");
        continue;
      }
      position = ctx.b.CreateSub(linear, output.origin, "", /*HasNUW=*/true, /*HasNSW=*/true);
    }
    storeElement(ctx.b, output.value->type().elementType(), value, output.base, position);
  }
  group.gen.clearElementPosition();
}

void emitElementwiseBlock(GroupEmission &group, llvm::Value *blockId) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const ThreadMapping &mapping = group.group.mapping;
  const std::vector<DimExpr> &shape = group.group.dominant->type().shape();
  for (const GroupOutput &output : group.outputs)
    if (output.value->type().shape() != shape)
      ctx.fail("an element-wise group writes " + output.value->name() +
               " whose shape differs from its dominant's");

  // rows x cols: the leading dims collapsed, then the trailing dims whose
  // product is the mapping's cols (usually the last dim; rank 0: 1 x 1).
  auto trailingProduct = [&](size_t from) {
    return dimProduct({shape.begin() + static_cast<std::ptrdiff_t>(from), shape.end()});
  };
  size_t split = 0;
  if (!shape.empty()) {
    split = shape.size() - 1;
    if (trailingProduct(split) != mapping.cols) {
      // cols 1: every dim is a row dim (a group that follows another's rows).
      split = shape.size();
      while (split > 0 && trailingProduct(split) != mapping.cols)
        --split;
      if (trailingProduct(split) != mapping.cols)
        ctx.fail("an element-wise mapping's cols " + mapping.cols.str() +
                 " are not a product of trailing dims of " +
                 group.group.dominant->result()->name());
    }
  }
  std::vector<DimExpr> leading(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(split));
  std::vector<DimExpr> trailing(shape.begin() + static_cast<std::ptrdiff_t>(split), shape.end());
  llvm::Value *rows = gen.dim(dimProduct(leading));
  llvm::Value *cols = gen.dim(dimProduct(trailing));
  auto [rowBlock, colBegin, colEnd] = columnStrip(b, blockId, cols, mapping.colsPerBlock);
  llvm::Value *rowBegin =
      b.CreateMul(rowBlock, b.getInt64(std::max<int64_t>(mapping.rowsPerBlock, 1)));
  llvm::Value *rowEnd = emitMin(
      b, b.CreateAdd(rowBegin, b.getInt64(std::max<int64_t>(mapping.rowsPerBlock, 1))), rows);
  // A block's tile is contiguous unless it splits rows and packs several.
  if (mapping.colsPerBlock > 0 && mapping.rowsPerBlock > 1)
    for (const GroupOutput &output : group.outputs)
      if (output.blockLocal)
        ctx.fail("the block buffer of " + output.value->name() +
                 " needs a contiguous tile (rows are split and packed)");
  setTileOrigins(group, shape, b.CreateAdd(b.CreateMul(rowBegin, cols), colBegin));

  // The row's multi-index is carried from row to row (no division per row).
  int64_t innerTrips = 0;
  LoopResult rowLoop = emitLoop(
      b, rowBegin, rowEnd, gen.unravelStart(rowBegin, leading),
      [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *> carried) {
        std::vector<llvm::Value *> prefix(carried.begin(), carried.end());
        llvm::Value *rowStart = b.CreateMul(row, cols, "", /*HasNUW=*/true, /*HasNSW=*/true);
        // The block's lanes split the columns (CPU: one lane, the loop as is).
        llvm::Value *lanes = ctx.target.laneCount(b);
        bool oneLane = isSingleLane(lanes);
        llvm::Value *laneBegin =
            oneLane ? colBegin : b.CreateAdd(colBegin, ctx.target.laneId(b), "lane.col");
        LoopResult inner = emitStridedLoop(
            b, laneBegin, colEnd, oneLane ? nullptr : lanes, {},
            [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *>) {
              std::vector<llvm::Value *> index = prefix;
              std::vector<llvm::Value *> suffix = gen.unravel(col, trailing);
              index.insert(index.end(), suffix.begin(), suffix.end());
              llvm::Value *linear =
                  b.CreateAdd(rowStart, col, "", /*HasNUW=*/true, /*HasNSW=*/true);
              storeGroupOutputs(group, shape, index, linear);
              return std::vector<llvm::Value *>{};
            },
            "col");
        ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips);
        innerTrips = inner.constantTrips;
        return gen.advance(prefix, leading);
      },
      "row");
  // Rows of one element are the vector work themselves (a per-row value).
  if (innerTrips != 1)
    ctx.target.annotateRowLoop(rowLoop.latch);
}

} // namespace xs
