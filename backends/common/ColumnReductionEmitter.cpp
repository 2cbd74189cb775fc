// Column reductions (ColumnReduce, BatchColumnReduce and the ColumnPartial /
// ColumnCombine pair of split columns), one block each (layouts in
// GroupEmitter.h).

#include <algorithm>
#include <cassert>
#include <functional>
#include <memory>
#include <tuple>

#include "backends/common/GroupEmitter.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/Reduction.h"

namespace xs {
namespace {

/// Rows a column reduction adds per pass over its accumulators: fewer
/// accumulator loads and stores per element, and several row streams in
/// flight for the memory system (measured on x86: 4 cut f32[16384, 1024]
/// column sums by about a fifth against 1; with f64 sums, 8 against 4 cut
/// f32[65536, 1024] from 10.5 to 8.3 ms).
constexpr int64_t kColumnRowsPerStep = 8;

/// The columns a column-reduction block covers and its rows: the kept index
/// is batchPrefix followed by the column's multi-index in colShape.
struct ColumnWork {
  std::vector<llvm::Value *> batchPrefix;
  std::vector<DimExpr> colShape;
  llvm::Value *colBegin = nullptr;
  llvm::Value *colEnd = nullptr;
  llvm::Value *rowBegin = nullptr;
  llvm::Value *rowEnd = nullptr;
};

/// The element of row `row` at column `col` (linear, in colShape), whose kept
/// index is `kept` (batch prefix and column index); for a combine, a partial
/// state of the accumulation type.
using ColumnLoad = std::function<llvm::Value *(llvm::Value *row, llvm::Value *col,
                                               const std::vector<llvm::Value *> &kept)>;
/// Receives the final state of column `col` (whose kept index is `kept`).
using ColumnFinish = std::function<void(llvm::Value *col, const std::vector<llvm::Value *> &kept,
                                        llvm::ArrayRef<llvm::Value *> state)>;

/// Loads the reduction's operand (computed by the group's inlined ops).
ColumnLoad operandLoad(ElementGenerator &gen, const Reduction &reduction) {
  return
      [&gen, &reduction](llvm::Value *row, llvm::Value *, const std::vector<llvm::Value *> &kept) {
        std::vector<llvm::Value *> reduced = gen.unravel(row, reduction.reducedShape());
        return gen.emit(reduction.operand(), reduction.operandIndex(kept, reduced));
      };
}

/// One reduction of a column pass: where its elements come from and where
/// its final states go.
struct ColumnReduction {
  const Reduction *reduction;
  ColumnLoad load;
  ColumnFinish finish;
};

/// Reduces rows [rowBegin, rowEnd) of columns [colBegin, colEnd) for every
/// reduction of `reductions` at once (siblings reading the same rows).
/// Columns are processed in tiles whose accumulators fit the block buffer;
/// rows outer, columns inner, so the inner loop reads contiguous columns.
/// `loadsStates`: loaded values are partial states, combined as they are,
/// one row at a time (there are few, and the unrolled loops cost compile
/// time for nothing).
void reduceColumns(GroupEmission &group, const std::vector<ColumnReduction> &reductions,
                   const ColumnWork &work, bool loadsStates) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const ThreadMapping &mapping = group.group.mapping;
  const llvm::DataLayout &layout = b.GetInsertBlock()->getModule()->getDataLayout();
  std::vector<std::vector<llvm::Type *>> stateTypes;
  int64_t stateBytes = 0;
  for (const ColumnReduction &r : reductions) {
    stateTypes.push_back(r.reduction->stateTypes(b.getContext()));
    for (llvm::Type *t : stateTypes.back())
      stateBytes += static_cast<int64_t>(layout.getTypeAllocSize(t));
  }
  llvm::Value *lanes = ctx.target.laneCount(b);
  bool splitLanes = !isSingleLane(lanes);
  // Narrow strips on GPUs: row groups with accumulators of their own
  // (columnRowGroups).
  int64_t maxGroups = splitLanes ? columnRowGroups(mapping.colsPerBlock, group.description) : 1;
  bool grouped = maxGroups > 1;
  int64_t tile =
      columnAccumulatorTile(mapping.colsPerBlock, stateBytes, maxGroups, group.description);
  std::vector<std::vector<llvm::Value *>> accumulators(reductions.size());
  for (size_t i = 0; i < reductions.size(); ++i)
    for (llvm::Type *t : stateTypes[i])
      accumulators[i].push_back(
          ctx.allocateBlockBuffer(t, DimExpr(tile * maxGroups), b.getInt64(tile * maxGroups)));
  // GPUs: each lane owns the tile's columns c = lane (mod lanes), which it
  // alone initializes, accumulates over every row and stores, so no two
  // lanes share an accumulator; adjacent lanes read adjacent columns. One
  // lane (CPU): the loops as they are. Grouped: lane l of row group g owns
  // columns l, l + G, ... of group g's accumulators (G lanes a group), and
  // the group takes every groups-th step of rows; lanes past the last
  // group (a block whose lanes are not a multiple of G groups) idle.
  llvm::Value *firstColumn = splitLanes ? ctx.target.laneId(b) : b.getInt64(0);
  llvm::Value *columnStep = splitLanes ? lanes : nullptr;
  llvm::Value *rowGroup = nullptr, *rowGroups = nullptr, *groupBase = nullptr;
  if (grouped) {
    llvm::Value *groupLanes = b.getInt64(columnGroupLanes(mapping.colsPerBlock));
    llvm::Value *lane = ctx.target.laneId(b);
    rowGroup = b.CreateUDiv(lane, groupLanes, "row.group");
    rowGroups = emitMin(b, b.CreateUDiv(lanes, groupLanes), b.getInt64(maxGroups));
    llvm::Value *active = b.CreateICmpULT(rowGroup, rowGroups);
    firstColumn =
        b.CreateSelect(active, b.CreateURem(lane, groupLanes), b.getInt64(tile), "group.col");
    columnStep = groupLanes;
    groupBase = b.CreateMul(rowGroup, b.getInt64(tile), "group.base");
  }
  // The accumulator of tile column c for this lane's row group.
  auto accumulatorAt = [&](llvm::Value *c) { return grouped ? b.CreateAdd(groupBase, c) : c; };
  // GPUs, lanes not grouped: where a tile has a run of vectorWidth columns
  // for every lane, each lane owns runs of adjacent columns instead (run r
  // = lane, lane + lanes, ...), so that its loads of a row, and of its
  // accumulators, merge into vectors; every loop over a tile's columns
  // takes the same ones (no lane touches another's accumulators).
  int64_t run = splitLanes && !grouped ? std::max<int64_t>(mapping.vectorWidth, 1) : 1;
  // `runs`: whether the tile takes them (null when run is 1).
  auto ownedColumns = [&](llvm::Value *width, llvm::Value *runs, const char *name,
                          const std::function<void(llvm::Value * c)> &body) {
    auto columns = [&](llvm::Value *first, llvm::Value *step, int64_t adjacent) {
      return emitStridedRuns(
          b, first, width, step, adjacent, {},
          [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
            body(c);
            return std::vector<llvm::Value *>{};
          },
          name);
    };
    if (run == 1)
      return columns(firstColumn, columnStep, 1);
    LoopResult scalar;
    emitIfElseValues(
        b, runs,
        [&] {
          columns(b.CreateMul(firstColumn, b.getInt64(run), "lane.run", /*HasNUW=*/true,
                              /*HasNSW=*/true),
                  b.CreateMul(columnStep, b.getInt64(run), "run.step"), run);
          return std::vector<llvm::Value *>{};
        },
        [&] {
          scalar = columns(firstColumn, columnStep, 1);
          return std::vector<llvm::Value *>{};
        });
    return scalar;
  };
  llvm::Value *tiles = b.CreateUDiv(
      b.CreateAdd(b.CreateSub(work.colEnd, work.colBegin), b.getInt64(tile - 1)), b.getInt64(tile));
  auto keptAt = [&](llvm::Value *col) {
    std::vector<llvm::Value *> kept = work.batchPrefix;
    std::vector<llvm::Value *> colIndex = gen.unravel(col, work.colShape);
    kept.insert(kept.end(), colIndex.begin(), colIndex.end());
    return kept;
  };

  LoopResult tileLoop = emitLoop(
      b, b.getInt64(0), tiles, {},
      [&](llvm::Value *t, llvm::ArrayRef<llvm::Value *>) {
        llvm::Value *tileBegin = b.CreateAdd(work.colBegin, b.CreateMul(t, b.getInt64(tile)));
        llvm::Value *width = emitMin(b, b.getInt64(tile), b.CreateSub(work.colEnd, tileBegin));
        llvm::Value *runs =
            run == 1
                ? nullptr
                : b.CreateAnd(b.CreateICmpEQ(b.CreateURem(width, b.getInt64(run)), b.getInt64(0)),
                              b.CreateICmpSGE(width, b.CreateMul(lanes, b.getInt64(run))), "runs");
        std::vector<std::vector<llvm::Value *>> init;
        for (const ColumnReduction &r : reductions)
          init.push_back(r.reduction->initial(b));
        LoopResult initLoop = ownedColumns(width, runs, "init", [&](llvm::Value *c) {
          for (size_t i = 0; i < reductions.size(); ++i)
            for (size_t s = 0; s < accumulators[i].size(); ++s)
              b.CreateStore(init[i][s], b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s],
                                                            accumulatorAt(c)));
        });
        ctx.target.annotateInnerLoop(initLoop.latch, initLoop.constantTrips);
        // `unroll` rows per column step load and store each accumulator once
        // and keep that many row streams in flight; the steps stay in row
        // order, so every kind (argmax/argmin too) accumulates as one row at
        // a time would.
        auto emitRows = [&](llvm::Value *firstRow, llvm::Value *groups, int64_t unroll) {
          LoopResult rows = emitStridedLoop(
              b, grouped ? rowGroup : b.getInt64(0), groups, grouped ? rowGroups : nullptr, {},
              [&](llvm::Value *rowGroup, llvm::ArrayRef<llvm::Value *>) {
                llvm::Value *groupRow =
                    b.CreateAdd(firstRow, b.CreateMul(rowGroup, b.getInt64(unroll)));
                LoopResult inner = ownedColumns(width, runs, "col", [&](llvm::Value *c) {
                  llvm::Value *col = b.CreateAdd(tileBegin, c);
                  std::vector<llvm::Value *> kept = keptAt(col);
                  for (size_t i = 0; i < reductions.size(); ++i) {
                    const Reduction &reduction = *reductions[i].reduction;
                    std::vector<llvm::Value *> addresses, state;
                    for (size_t s = 0; s < accumulators[i].size(); ++s) {
                      addresses.push_back(b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s],
                                                              accumulatorAt(c)));
                      state.push_back(b.CreateLoad(stateTypes[i][s], addresses.back()));
                    }
                    // A widened sum adds the step's rows in the element
                    // type first: one conversion and one wide add per step.
                    llvm::Value *partial = nullptr;
                    for (int64_t u = 0; u < unroll; ++u) {
                      llvm::Value *row = b.CreateAdd(groupRow, b.getInt64(u));
                      llvm::Value *value = reductions[i].load(row, col, kept);
                      if (loadsStates)
                        state = reduction.combine(b, state, value);
                      else if (!reduction.widened())
                        state = reduction.step(b, state, value, row);
                      else
                        partial = partial ? emitReduceStep(b, reduction.kind(), reduction.type(),
                                                           partial, value)
                                          : value;
                    }
                    if (partial)
                      state = reduction.step(b, state, partial, groupRow);
                    for (size_t s = 0; s < accumulators[i].size(); ++s)
                      b.CreateStore(state[s], addresses[s]);
                  }
                });
                ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips);
                return std::vector<llvm::Value *>{};
              },
              "row");
          ctx.target.annotateRowLoop(rows.latch);
        };
        int64_t unroll = loadsStates ? 1 : kColumnRowsPerStep;
        llvm::Value *count = emitMax(b, b.CreateSub(work.rowEnd, work.rowBegin), b.getInt64(0));
        llvm::Value *groups = b.CreateUDiv(count, b.getInt64(unroll));
        llvm::Value *unrolled = b.CreateMul(groups, b.getInt64(unroll));
        emitRows(work.rowBegin, groups, unroll);
        if (unroll > 1)
          emitRows(b.CreateAdd(work.rowBegin, unrolled), b.CreateSub(count, unrolled), 1);
        ctx.target.emitBlockBarrier(b);
        auto loadState = [&](size_t i, llvm::Value *slot) {
          std::vector<llvm::Value *> state;
          for (size_t s = 0; s < accumulators[i].size(); ++s)
            state.push_back(b.CreateLoad(
                stateTypes[i][s], b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s], slot)));
          return state;
        };
        // Grouped: the block's lanes take the tile's columns, each merging
        // the groups' states in group order.
        auto finishColumn = [&](llvm::Value *c) {
          llvm::Value *col = b.CreateAdd(tileBegin, c);
          std::vector<llvm::Value *> kept = keptAt(col);
          for (size_t i = 0; i < reductions.size(); ++i) {
            std::vector<llvm::Value *> state = loadState(i, c);
            if (grouped)
              state = emitLoop(
                          b, b.getInt64(1), rowGroups, state,
                          [&](llvm::Value *g, llvm::ArrayRef<llvm::Value *> merged) {
                            llvm::Value *slot = b.CreateAdd(b.CreateMul(g, b.getInt64(tile)), c);
                            return reductions[i].reduction->combine(b, merged, loadState(i, slot));
                          },
                          "groups")
                          .carried;
            reductions[i].finish(col, kept, state);
          }
        };
        LoopResult store = grouped ? emitStridedLoop(
                                         b, ctx.target.laneId(b), width, lanes, {},
                                         [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
                                           finishColumn(c);
                                           return std::vector<llvm::Value *>{};
                                         },
                                         "store")
                                   : ownedColumns(width, runs, "store", finishColumn);
        ctx.target.annotateInnerLoop(store.latch, store.constantTrips);
        // The next tile's initialization overwrites what other lanes read.
        if (grouped)
          ctx.target.emitBlockBarrier(b);
        return std::vector<llvm::Value *>{};
      },
      "tile");
  ctx.target.annotateRowLoop(tileLoop.latch);
}

} // namespace

void emitColumnReduceBlock(GroupEmission &group, llvm::Value *blockId) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const Operation &op = *group.group.dominant;
  const ThreadMapping &mapping = group.group.mapping;
  Reduction reduction(op, /*inRegisters=*/false, /*wideSums=*/true);
  if (!reduction.contiguous() ||
      (mapping.kind == MappingKind::ColumnReduce && reduction.firstReduced() != 0))
    return ctx.fail("a column mapping needs one contiguous run of reduced dims (" +
                    op.result()->name() + ")");
  size_t first = reduction.firstReduced();
  const std::vector<DimExpr> &keptAll = reduction.keptShape();
  std::vector<DimExpr> batchShape(keptAll.begin(),
                                  keptAll.begin() + static_cast<std::ptrdiff_t>(first));
  ColumnWork work;
  work.colShape.assign(keptAll.begin() + static_cast<std::ptrdiff_t>(first), keptAll.end());
  llvm::Value *batch = gen.dim(dimProduct(batchShape));
  llvm::Value *cols = gen.dim(dimProduct(work.colShape));
  auto [batchIndex, colBegin, colEnd] = columnStrip(b, blockId, cols, mapping.colsPerBlock);
  // A block past the last batch index does nothing.
  work.colBegin = colBegin;
  work.colEnd = b.CreateSelect(b.CreateICmpSLT(batchIndex, batch), colEnd, colBegin);
  work.rowBegin = b.getInt64(0);
  work.rowEnd = gen.dim(dimProduct(reduction.reducedShape()));
  work.batchPrefix = gen.unravel(batchIndex, batchShape);
  setTileOrigins(group, op.type().shape(), b.CreateAdd(b.CreateMul(batchIndex, cols), colBegin));
  ColumnFinish finish = [&](llvm::Value *col, const std::vector<llvm::Value *> &kept,
                            llvm::ArrayRef<llvm::Value *> state) {
    llvm::Value *linear = b.CreateAdd(b.CreateMul(batchIndex, cols), col);
    storeReduced(group, reduction.result(b, state), kept, linear);
  };
  reduceColumns(group, {{&reduction, operandLoad(gen, reduction), finish}}, work,
                /*loadsStates=*/false);
}

void emitColumnPartialSiblings(std::vector<GroupEmission> &groups, llvm::Value *blockId) {
  assert(!groups.empty());
  GroupEmission &first = groups.front();
  ElementGenerator &gen = first.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  // Reductions stay at fixed addresses: the loads and finishes refer to them.
  std::vector<std::unique_ptr<Reduction>> reductions;
  for (const GroupEmission &group : groups) {
    const Operation &op = *group.group.dominant;
    reductions.push_back(std::make_unique<Reduction>(op, /*inRegisters=*/false,
                                                     /*wideSums=*/true));
    const Reduction &reduction = *reductions.back();
    if (!group.partials || reduction.isArg() || !reduction.contiguous() ||
        reduction.firstReduced() != 0 ||
        reduction.reducedShape() != reductions.front()->reducedShape() ||
        reduction.keptShape() != reductions.front()->keptShape())
      return ctx.fail("a column-partial mapping needs leading reduced dims and partials (" +
                      op.result()->name() + ")");
  }
  const Reduction &reduction = *reductions.front();
  ColumnWork work;
  work.colShape = reduction.keptShape();
  llvm::Value *cols = gen.dim(dimProduct(work.colShape));
  llvm::Value *rows = gen.dim(dimProduct(reduction.reducedShape()));
  std::tie(work.rowBegin, work.rowEnd) =
      blockRange(b, blockId, first.group.mapping.rowsPerBlock, rows);
  work.colBegin = b.getInt64(0);
  work.colEnd = cols;
  llvm::Value *partialRow = b.CreateMul(blockId, cols);
  std::vector<ColumnReduction> passes;
  for (size_t i = 0; i < groups.size(); ++i) {
    llvm::Value *partials = groups[i].partials;
    llvm::Type *stateType = reductions[i]->stateTypes(b.getContext())[0];
    passes.push_back(
        {reductions[i].get(), operandLoad(gen, *reductions[i]),
         [&b, partials, stateType, partialRow](llvm::Value *col, const std::vector<llvm::Value *> &,
                                               llvm::ArrayRef<llvm::Value *> state) {
           b.CreateStore(state[0],
                         b.CreateInBoundsGEP(stateType, partials, b.CreateAdd(partialRow, col)));
         }});
  }
  reduceColumns(first, passes, work, /*loadsStates=*/false);
}

void emitColumnPartialBlock(GroupEmission &group, llvm::Value *blockId) {
  std::vector<GroupEmission> one{group};
  emitColumnPartialSiblings(one, blockId);
  group.outputs = one.front().outputs;
}

void emitColumnCombineBlock(GroupEmission &group, llvm::Value *blockId) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const Operation &op = *group.group.dominant;
  const ThreadMapping &mapping = group.group.mapping;
  Reduction reduction(op, /*inRegisters=*/false, /*wideSums=*/true);
  if (!group.partials || reduction.isArg())
    return ctx.fail("a column-combine mapping needs partials (" + op.result()->name() + ")");
  ColumnWork work;
  work.colShape = reduction.keptShape();
  llvm::Value *cols = gen.dim(dimProduct(work.colShape));
  auto [batchIndex, colBegin, colEnd] = columnStrip(b, blockId, cols, mapping.colsPerBlock);
  // A block past the last strip (batch index 1) does nothing.
  work.colBegin = colBegin;
  work.colEnd = b.CreateSelect(b.CreateICmpEQ(batchIndex, b.getInt64(0)), colEnd, colBegin);
  work.rowBegin = b.getInt64(0);
  work.rowEnd = gen.dim(mapping.rows);
  setTileOrigins(group, op.type().shape(), colBegin);
  llvm::Type *stateType = reduction.stateTypes(b.getContext())[0];
  ColumnLoad load = [&](llvm::Value *row, llvm::Value *col, const std::vector<llvm::Value *> &) {
    return b.CreateLoad(stateType, b.CreateInBoundsGEP(stateType, group.partials,
                                                       b.CreateAdd(b.CreateMul(row, cols), col)));
  };
  ColumnFinish finish = [&](llvm::Value *col, const std::vector<llvm::Value *> &kept,
                            llvm::ArrayRef<llvm::Value *> state) {
    storeReduced(group, reduction.result(b, state), kept, col);
  };
  reduceColumns(group, {{&reduction, load, finish}}, work, /*loadsStates=*/true);
}

} // namespace xs
