#include "backends/common/GroupEmitter.h"

#include "backends/common/LoopBuilder.h"
#include "backends/common/TypeLowering.h"

namespace xs {

void storeGroupOutputs(GroupEmission &group, const std::vector<DimExpr> &shape,
                       const std::vector<llvm::Value *> &index, llvm::Value *linear) {
  KernelContext &ctx = group.gen.context();
  for (const GroupOutput &output : group.outputs) {
    if (output.value->type().shape() != shape)
      continue;
    llvm::Value *value = group.gen.emit(output.value, index);
    storeElement(ctx.b, output.value->type().elementType(), value,
                 ctx.buffers[static_cast<size_t>(output.buffer)], linear);
  }
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

  // rows x cols: the leading dims collapsed, the last dim (rank 0: 1 x 1).
  std::vector<DimExpr> leading(shape.begin(), shape.empty() ? shape.end() : shape.end() - 1);
  llvm::Value *rows = gen.dim(dimProduct(leading));
  llvm::Value *cols = shape.empty() ? b.getInt64(1) : gen.dim(shape.back());
  llvm::Value *rowBlock = blockId;
  llvm::Value *colBegin = b.getInt64(0);
  llvm::Value *colEnd = cols;
  if (mapping.colsPerBlock > 0) {
    llvm::Value *width = b.getInt64(mapping.colsPerBlock);
    llvm::Value *colBlocks =
        b.CreateUDiv(b.CreateAdd(cols, b.getInt64(mapping.colsPerBlock - 1)), width);
    // No columns: every block is past the end (avoid a division by zero).
    colBlocks = emitMax(b, colBlocks, b.getInt64(1));
    rowBlock = b.CreateUDiv(blockId, colBlocks);
    colBegin = b.CreateMul(b.CreateURem(blockId, colBlocks), width);
    colEnd = emitMin(b, b.CreateAdd(colBegin, width), cols);
  }
  llvm::Value *rowBegin =
      b.CreateMul(rowBlock, b.getInt64(std::max<int64_t>(mapping.rowsPerBlock, 1)));
  llvm::Value *rowEnd = emitMin(
      b, b.CreateAdd(rowBegin, b.getInt64(std::max<int64_t>(mapping.rowsPerBlock, 1))), rows);

  emitLoop(
      b, rowBegin, rowEnd, {},
      [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *>) {
        std::vector<llvm::Value *> prefix = gen.unravel(row, leading);
        llvm::Value *rowStart = b.CreateMul(row, cols, "", /*HasNUW=*/true, /*HasNSW=*/true);
        LoopResult inner = emitLoop(
            b, colBegin, colEnd, {},
            [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *>) {
              std::vector<llvm::Value *> index = prefix;
              if (!shape.empty())
                index.push_back(col);
              llvm::Value *linear =
                  b.CreateAdd(rowStart, col, "", /*HasNUW=*/true, /*HasNSW=*/true);
              storeGroupOutputs(group, shape, index, linear);
              return std::vector<llvm::Value *>{};
            },
            "col");
        ctx.target.annotateInnerLoop(inner.latch);
        return std::vector<llvm::Value *>{};
      },
      "row");
}

} // namespace xs
