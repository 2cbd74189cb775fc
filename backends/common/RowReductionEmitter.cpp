// Row reductions (RowReduce and the RowPartial / RowCombine pair of split
// rows) and the Generic mapping, one block each (layouts in GroupEmitter.h).

#include <algorithm>
#include <cassert>
#include <functional>
#include <tuple>

#include "backends/common/GroupEmitter.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/Reduction.h"

namespace xs {

namespace {

/// The state of `reduction` at result index `resultIndex` over the reduced
/// elements first, first + step, ... (step nullptr: 1).
std::vector<llvm::Value *> reduceElements(ElementGenerator &gen, const Reduction &reduction,
                                          const std::vector<llvm::Value *> &resultIndex,
                                          llvm::Value *first, llvm::Value *step) {
  llvm::IRBuilder<> &b = gen.context().b;
  llvm::Value *count = gen.dim(dimProduct(reduction.reducedShape()));
  return emitStridedLoop(
             b, first, count, step, reduction.initial(b),
             [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *> state) {
               std::vector<llvm::Value *> reduced = gen.unravel(j, reduction.reducedShape());
               llvm::Value *value =
                   gen.emit(reduction.operand(), reduction.operandIndex(resultIndex, reduced));
               return reduction.step(b, state, value, j);
             },
             "reduce")
      .carried;
}

} // namespace

llvm::Value *emitReduceAt(ElementGenerator &gen, const Operation &op,
                          const std::vector<llvm::Value *> &resultIndex) {
  llvm::IRBuilder<> &b = gen.context().b;
  Reduction reduction(op, /*inRegisters=*/true, /*wideSums=*/false, &gen.context().body);
  return reduction.result(
      b, reduceElements(gen, reduction, resultIndex, b.getInt64(0), /*step=*/nullptr));
}

namespace {

/// RowReduce and RowPartial for one group, or RowReduce for sibling groups
/// that reduce operands of one shape over the same rows: one row loop, one
/// column loop carrying every sibling's state, so that the rows are read
/// once and what the siblings share is computed once.
void emitRowReductions(std::vector<GroupEmission> &groups, llvm::Value *blockId) {
  assert(!groups.empty());
  GroupEmission &first = groups.front();
  ElementGenerator &gen = first.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  // On targets with several lanes per block (GPUs) the lanes split each
  // row's columns and their states merge (Reduction::combine) before the
  // result is taken; float extrema then take the plain NaN-propagating form,
  // as the flagged one only serves vectorized loops. One lane (CPU): the
  // loop as is.
  RowLanes rowLanes = rowLanesOf(ctx, first.group.mapping);
  bool splitLanes = rowLanes.split;
  std::vector<Reduction> reductions;
  for (const GroupEmission &group : groups) {
    const Operation &op = *group.group.dominant;
    reductions.emplace_back(op, /*inRegisters=*/!splitLanes, /*wideSums=*/false, &ctx.body);
    const Reduction &reduction = reductions.back();
    if (!reduction.contiguous() || reduction.firstReduced() + reduction.reducedShape().size() !=
                                       reduction.reducedMask().size())
      return ctx.fail("a RowReduce mapping needs the reduced dims last (" + op.result()->name() +
                      ")");
  }
  const Operation &op = *first.group.dominant;
  const Reduction &reduction = reductions.front();
  const ThreadMapping &mapping = first.group.mapping;
  bool partial = mapping.kind == MappingKind::RowPartial;
  if (mapping.colsPerBlock != 0 && !partial)
    return ctx.fail("split rows (colsPerBlock > 0) need a row-partial mapping (" +
                    op.result()->name() + ")");
  if (partial && (groups.size() != 1 || !first.partials || reduction.isArg() ||
                  mapping.colsPerBlock <= 0 || !first.outputs.empty()))
    return ctx.fail("a row-partial mapping needs chunks, partials and no other outputs (" +
                    op.result()->name() + ")");
  llvm::Value *rows = gen.dim(dimProduct(reduction.keptShape()));
  llvm::Value *cols = gen.dim(dimProduct(reduction.reducedShape()));
  llvm::Value *rowBegin, *rowEnd, *colBegin = b.getInt64(0), *colEnd = cols;
  llvm::Value *partialBase = nullptr; // partial [row, chunk] of the block's first row
  if (partial) {
    // One chunk of one row per block.
    ColumnStrip strip = columnStrip(b, blockId, cols, mapping.colsPerBlock);
    rowBegin = strip.outerBlock;
    rowEnd = emitMin(b, b.CreateAdd(rowBegin, b.getInt64(1)), rows);
    colBegin = strip.begin;
    colEnd = strip.end;
    llvm::Value *chunks = b.CreateUDiv(b.CreateAdd(cols, b.getInt64(mapping.colsPerBlock - 1)),
                                       b.getInt64(mapping.colsPerBlock));
    partialBase = b.CreateAdd(b.CreateMul(rowBegin, chunks),
                              b.CreateUDiv(colBegin, b.getInt64(mapping.colsPerBlock)));
  } else {
    std::tie(rowBegin, rowEnd) = blockRange(b, blockId, mapping.rowsPerBlock, rows);
  }
  const std::vector<DimExpr> &operandShape = reduction.operand()->type().shape();
  // Values of the operand's shape a group keeps (AStitch's Regional
  // producer of a row reduction) are written as the row is reduced.
  std::vector<GroupEmission> operandOutputs;
  for (GroupEmission &group : groups) {
    const Operation &dominant = *group.group.dominant;
    setTileOrigins(group, dominant.type().shape(), rowBegin);
    setTileOrigins(group, operandShape,
                   b.CreateMul(rowBegin, cols, "", /*HasNUW=*/true, /*HasNSW=*/true));
    operandOutputs.push_back(GroupEmission{gen, group.group, {}, group.description});
    for (const GroupOutput &output : group.outputs)
      if (output.value->type().shape() == operandShape && output.value != dominant.result())
        operandOutputs.back().outputs.push_back(output);
  }
  // Where each sibling's state starts in the column loop's carried values.
  std::vector<llvm::Value *> initial;
  std::vector<size_t> stateBegin;
  for (const Reduction &r : reductions) {
    stateBegin.push_back(initial.size());
    std::vector<llvm::Value *> init = r.initial(b);
    initial.insert(initial.end(), init.begin(), init.end());
  }
  stateBegin.push_back(initial.size());
  auto stateOf = [&](llvm::ArrayRef<llvm::Value *> state, size_t i) {
    return state.slice(stateBegin[i], stateBegin[i + 1] - stateBegin[i]);
  };
  bool anyArg = std::any_of(reductions.begin(), reductions.end(),
                            [](const Reduction &r) { return r.isArg(); });
  const std::vector<DimExpr> &keptShape = reduction.keptShape();
  LoopResult rowLoop = emitBlockRows(
      gen, rowLanes, rowBegin, rowEnd, keptShape,
      [&](llvm::Value *row, const std::vector<llvm::Value *> &kept) {
        LoopResult inner = emitRowColumns(
            ctx, rowLanes, mapping.vectorWidth, row, cols, colBegin, colEnd, initial,
            [&](llvm::Value *col, llvm::Value *rowStart, llvm::ArrayRef<llvm::Value *> state) {
              std::vector<llvm::Value *> reduced = gen.unravel(col, reduction.reducedShape());
              std::vector<llvm::Value *> index = reduction.operandIndex(kept, reduced);
              gen.setElementPosition(operandShape, index,
                                     b.CreateAdd(rowStart, col, "", /*HasNUW=*/true,
                                                 /*HasNSW=*/true));
              std::vector<llvm::Value *> next;
              for (size_t i = 0; i < reductions.size(); ++i) {
                llvm::Value *value = gen.emit(reductions[i].operand(), index);
                if (!operandOutputs[i].outputs.empty())
                  storeGroupOutputs(operandOutputs[i], operandShape, index,
                                    b.CreateAdd(rowStart, col, "", /*HasNUW=*/true,
                                                /*HasNSW=*/true));
                std::vector<llvm::Value *> stepped =
                    reductions[i].step(b, stateOf(state, i), value, col);
                next.insert(next.end(), stepped.begin(), stepped.end());
              }
              gen.clearElementPosition();
              return next;
            });
        // argmax/argmin carry an index through selects, which the vectorizer
        // does not handle: leave that loop to the cost model.
        if (!anyArg)
          ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips,
                                       narrowVectorWidth(first.group));
        for (size_t i = 0; i < reductions.size(); ++i) {
          const Reduction &r = reductions[i];
          llvm::ArrayRef<llvm::Value *> state = stateOf(inner.carried, i);
          // The row's lanes' states merge before the result is taken, in
          // the accumulation type.
          std::vector<llvm::Value *> merged =
              mergeRowLanes(ctx, rowLanes, state,
                            [&r](llvm::IRBuilder<> &ib, llvm::ArrayRef<llvm::Value *> x,
                                 llvm::ArrayRef<llvm::Value *> y) { return r.combine(ib, x, y); });
          llvm::Value *value = r.result(b, merged);
          if (partial) {
            // A block has one row: its chunk's state goes to partialBase.
            Reduction wide(op, /*inRegisters=*/false, /*wideSums=*/true);
            llvm::Type *stateType = wide.stateTypes(b.getContext())[0];
            if (value->getType() != stateType)
              value = b.CreateFPExt(value, stateType);
            b.CreateStore(value, b.CreateInBoundsGEP(stateType, first.partials, partialBase));
          } else {
            storeReduced(groups[i], value, kept, row);
          }
        }
      });
  ctx.target.annotateRowLoop(rowLoop.latch);
}

} // namespace

void emitRowReduceBlock(GroupEmission &group, llvm::Value *blockId) {
  std::vector<GroupEmission> one{group};
  emitRowReductions(one, blockId);
  group.outputs = one.front().outputs;
}

void emitRowReduceSiblings(std::vector<GroupEmission> &groups, llvm::Value *blockId) {
  for (const GroupEmission &group : groups)
    if (group.group.mapping.kind != MappingKind::RowReduce)
      return group.gen.context().fail("only row reductions are emitted as siblings (" +
                                      group.group.dominant->result()->name() + ")");
  emitRowReductions(groups, blockId);
}

void emitRowCombineBlock(GroupEmission &group, llvm::Value *blockId) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const Operation &op = *group.group.dominant;
  const ThreadMapping &mapping = group.group.mapping;
  Reduction reduction(op, /*inRegisters=*/false, /*wideSums=*/true);
  if (!group.partials || reduction.isArg())
    return ctx.fail("a row-combine mapping needs partials (" + op.result()->name() + ")");
  llvm::Value *rows = gen.dim(mapping.rows);
  llvm::Value *chunks = gen.dim(mapping.cols);
  auto [rowBegin, rowEnd] = blockRange(b, blockId, mapping.rowsPerBlock, rows);
  setTileOrigins(group, op.type().shape(), rowBegin);
  llvm::Type *stateType = reduction.stateTypes(b.getContext())[0];
  const std::vector<DimExpr> &keptShape = reduction.keptShape();
  LoopResult rowLoop = emitLoop(
      b, rowBegin, rowEnd, gen.unravelStart(rowBegin, keptShape),
      [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *> carried) {
        std::vector<llvm::Value *> kept(carried.begin(), carried.end());
        llvm::Value *first = b.CreateMul(row, chunks);
        // In chunk order, so results do not depend on the worker count.
        LoopResult inner = emitLoop(
            b, b.getInt64(0), chunks, reduction.initial(b),
            [&](llvm::Value *chunk, llvm::ArrayRef<llvm::Value *> state) {
              llvm::Value *other =
                  b.CreateLoad(stateType, b.CreateInBoundsGEP(stateType, group.partials,
                                                              b.CreateAdd(first, chunk)));
              return reduction.combine(b, state, other);
            },
            "chunk");
        // A row has a few chunks: vectorizing their loop would only cost
        // compile time.
        ctx.target.annotateRowLoop(inner.latch);
        storeReduced(group, reduction.result(b, inner.carried), kept, row);
        return gen.advance(kept, keptShape);
      },
      "row");
  ctx.target.annotateRowLoop(rowLoop.latch);
}

void emitGenericBlock(GroupEmission &group, llvm::Value *blockId) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const Operation &op = *group.group.dominant;
  const std::vector<DimExpr> &shape = op.type().shape();
  llvm::Value *total = gen.dim(dimProduct(shape));
  auto [begin, end] = blockRange(b, blockId, group.group.mapping.rowsPerBlock, total);
  setTileOrigins(group, shape, begin);
  bool isReduction = op.info().rule == TypeRule::Reduce || op.info().rule == TypeRule::ArgReduce;
  llvm::Value *lanes = ctx.target.laneCount(b);
  bool oneLane = isSingleLane(lanes);
  if (isReduction && !oneLane && group.group.mapping.rowLanes == 0) {
    // GPU: the block's lanes split each result's reduction and merge their
    // states; every lane walks the block's results together (the merge is
    // a block-wide exchange) and lane 0 stores.
    Reduction reduction(op, /*inRegisters=*/false, /*wideSums=*/false, &ctx.body);
    llvm::Value *lane = ctx.target.laneId(b);
    emitLoop(
        b, begin, end, {},
        [&](llvm::Value *position, llvm::ArrayRef<llvm::Value *>) {
          std::vector<llvm::Value *> index = gen.unravel(position, shape);
          std::vector<llvm::Value *> merged = ctx.target.emitCrossLaneReduce(
              b, reduceElements(gen, reduction, index, lane, lanes),
              [&](llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Value *> state,
                  llvm::ArrayRef<llvm::Value *> other) {
                return reduction.combine(builder, state, other);
              });
          llvm::Value *value = reduction.result(b, merged);
          emitIfElse(
              b, b.CreateICmpEQ(lane, b.getInt64(0)),
              [&] {
                storeReduced(group, value, index, position);
                return b.getInt1(true);
              },
              [&] { return b.getInt1(false); });
          return std::vector<llvm::Value *>{};
        },
        "element");
    return;
  }
  // The block's lanes take every lanes-th result (CPU: one lane, all).
  emitStridedLoop(
      b, oneLane ? begin : b.CreateAdd(begin, ctx.target.laneId(b), "lane.element"), end,
      oneLane ? nullptr : lanes, {},
      [&](llvm::Value *position, llvm::ArrayRef<llvm::Value *>) {
        std::vector<llvm::Value *> index = gen.unravel(position, shape);
        if (isReduction)
          storeReduced(group, emitReduceAt(gen, op, index), index, position);
        else
          storeGroupOutputs(group, shape, index, position);
        return std::vector<llvm::Value *>{};
      },
      "element");
}

} // namespace xs
