#include "backends/common/LineWalk.h"

#include <algorithm>

#include "backends/common/LoopBuilder.h"
#include "backends/common/Reduction.h"

namespace xs {

std::vector<llvm::Value *> Line::indexAt(llvm::Value *j) const {
  std::vector<llvm::Value *> index = outerIndex;
  index.push_back(j);
  index.insert(index.end(), columnIndex.begin(), columnIndex.end());
  return index;
}

llvm::Value *Line::positionAt(llvm::IRBuilder<> &b, llvm::Value *j, llvm::Value *length,
                              llvm::Value *inner) const {
  // (outer * length + j) * inner + column
  return b.CreateAdd(b.CreateMul(b.CreateAdd(b.CreateMul(outer, length), j), inner), column);
}

BlockLines::BlockLines(GroupEmission &group, const std::vector<DimExpr> &shape, size_t dim,
                       llvm::Value *blockId)
    : group_(group) {
  ElementGenerator &gen = group.gen;
  llvm::IRBuilder<> &b = gen.context().b;
  outerShape.assign(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(dim));
  innerShape.assign(shape.begin() + static_cast<std::ptrdiff_t>(dim) + 1, shape.end());
  inner = gen.dim(dimProduct(innerShape));
  const ThreadMapping &mapping = group.group.mapping;
  llvm::Value *rows = gen.dim(mapping.rows);
  llvm::Value *cols = gen.dim(mapping.cols);
  // Strips (colsPerBlock > 0) are of the columns after `dim`.
  ColumnStrip strip = columnStrip(b, blockId, inner, mapping.colsPerBlock);
  auto [rowBegin, rowEnd] = blockRange(b, strip.outerBlock, mapping.rowsPerBlock, rows);
  setTileOrigins(group, shape, b.CreateMul(rowBegin, cols));
  // A row holds cols / (length * inner) indices of the dims before `dim`
  // (none when a dim is empty).
  llvm::Value *lineSize = emitMax(b, b.CreateMul(gen.dim(shape[dim]), inner), b.getInt64(1));
  llvm::Value *outersPerRow = b.CreateUDiv(cols, lineSize);
  outerBegin = b.CreateMul(rowBegin, outersPerRow);
  outerEnd = b.CreateMul(rowEnd, outersPerRow);
  columnBegin = strip.begin;
  columnEnd = strip.end;
}

void BlockLines::forEachLine(const std::function<void(const Line &)> &body) const {
  ElementGenerator &gen = group_.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  RowLanes lanes = rowLanesOf(ctx, group_.group.mapping);
  llvm::Value *first = b.getInt64(0);
  llvm::Value *step = nullptr;
  if (lanes.packed && lanes.rowLanes > 1) {
    first = lanes.group;
    step = lanes.groups;
  } else if (lanes.split) {
    first = ctx.target.laneId(b);
    step = ctx.target.laneCount(b);
  }
  llvm::Value *width = emitMax(b, b.CreateSub(columnEnd, columnBegin), b.getInt64(0));
  llvm::Value *count = b.CreateMul(b.CreateSub(outerEnd, outerBegin), width);
  llvm::Value *divisor = emitMax(b, width, b.getInt64(1));
  LoopResult lineLoop = emitStridedLoop(
      b, first, count, step, {},
      [&](llvm::Value *i, llvm::ArrayRef<llvm::Value *>) {
        Line line;
        line.outer = b.CreateAdd(outerBegin, b.CreateUDiv(i, divisor));
        line.column = b.CreateAdd(columnBegin, b.CreateURem(i, divisor));
        line.outerIndex = gen.unravel(line.outer, outerShape);
        line.columnIndex = gen.unravel(line.column, innerShape);
        body(line);
        return std::vector<llvm::Value *>{};
      },
      "line");
  ctx.target.annotateRowLoop(lineLoop.latch);
}

llvm::AllocaInst *kernelStackArray(llvm::IRBuilder<> &b, llvm::Type *element, int64_t count,
                                   const char *name) {
  llvm::Function *kernel = b.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&kernel->getEntryBlock(), kernel->getEntryBlock().begin());
  llvm::AllocaInst *array = entry.CreateAlloca(
      llvm::ArrayType::get(element, static_cast<uint64_t>(std::max<int64_t>(count, 1))), nullptr,
      name);
  array->setAlignment(llvm::Align(64));
  return array;
}

} // namespace xs
