// Reductions: reduce_sum/max/min/prod and argmax/argmin for the RowReduce,
// ColumnReduce, BatchColumnReduce and Generic mappings, and the partial and
// combine mappings of split reductions. Accumulation follows
// ir/InterpretReduce.cpp: identities from docs/ir.md, NaN-propagating max
// and min, argmax/argmin keep the first extreme with NaN as the extreme.

#include <algorithm>
#include <cassert>
#include <functional>
#include <memory>
#include <tuple>

#include "backends/common/GroupEmitter.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/ScalarOps.h"
#include "backends/common/TypeLowering.h"
#include "ir/ValueFacts.h"

namespace xs {
namespace {

/// How a reduction op splits its operand's dims, and its accumulation.
class Reduction {
public:
  /// `inRegisters`: the state is a loop-carried value, not a buffer
  /// element, so float max/min may use the flagged form (ScalarOps.h).
  /// `wideSums`: accumulate as columnAccumulationType() says (KernelPlan.h).
  /// `body` (with `inRegisters`): the kernel body, where softmax's maximum
  /// (ir/ValueFacts.h) takes the unflagged form.
  Reduction(const Operation &op, bool inRegisters, bool wideSums = false,
            const Function *body = nullptr)
      : op_(op) {
    const TensorType &operandType = op.operand(0)->type();
    reduced_.assign(static_cast<size_t>(operandType.rank()), false);
    isArg_ = op.info().rule == TypeRule::ArgReduce;
    flagged_ = inRegisters && !isArg_ && isFlaggedExtremum(op.kind(), type());
    unflagged_ = flagged_ && body && isSoftmaxMaximum(*body, op);
    flagged_ = flagged_ && !unflagged_;
    accumulate_ = wideSums && !isArg_ ? columnAccumulationType(op) : type();
    if (isArg_) {
      reduced_[static_cast<size_t>(op.intAttrOr("dim", 0))] = true;
    } else if (const Attribute *dims = op.attr("dims")) {
      for (int64_t d : dims->getIntList())
        reduced_[static_cast<size_t>(d)] = true;
    }
    for (size_t d = 0; d < reduced_.size(); ++d)
      (reduced_[d] ? reducedShape_ : keptShape_)
          .push_back(operandType.dim(static_cast<int64_t>(d)));
  }

  const Value *operand() const { return op_.operand(0); }
  OpKind kind() const { return op_.kind(); }
  ElementType type() const { return operand()->type().elementType(); }
  bool isArg() const { return isArg_; }
  /// True when the state is wider than the element type (wideSums).
  bool widened() const { return accumulate_ != type(); }
  const std::vector<bool> &reducedMask() const { return reduced_; }
  const std::vector<DimExpr> &reducedShape() const { return reducedShape_; }
  const std::vector<DimExpr> &keptShape() const { return keptShape_; }
  /// Position of the first reduced dim.
  size_t firstReduced() const {
    return static_cast<size_t>(std::find(reduced_.begin(), reduced_.end(), true) -
                               reduced_.begin());
  }
  /// True when the reduced dims form one contiguous run.
  bool contiguous() const {
    size_t first = firstReduced();
    size_t count = reducedShape_.size();
    for (size_t d = 0; d < reduced_.size(); ++d)
      if (reduced_[d] != (d >= first && d < first + count))
        return false;
    return true;
  }

  /// The operand index from the kept and the reduced parts, in dim order.
  std::vector<llvm::Value *> operandIndex(const std::vector<llvm::Value *> &kept,
                                          const std::vector<llvm::Value *> &reduced) const {
    std::vector<llvm::Value *> index;
    size_t k = 0, r = 0;
    for (bool isReduced : reduced_)
      index.push_back(isReduced ? reduced[r++] : kept[k++]);
    return index;
  }

  std::vector<llvm::Type *> stateTypes(llvm::LLVMContext &context) const {
    assert(!flagged_ && "flagged state is only carried in registers");
    std::vector<llvm::Type *> types{computeType(context, accumulate_)};
    if (isArg_)
      types.push_back(llvm::Type::getInt64Ty(context));
    return types;
  }

  /// The state before any element: the identity; for argmax/argmin the
  /// identity of max/min and index 0, which no element beats unless it is
  /// strictly beyond, so the first extreme (or 0) wins.
  std::vector<llvm::Value *> initial(llvm::IRBuilder<> &b) const {
    if (flagged_)
      return flaggedExtremumInitial(b, op_.kind(), type());
    if (!isArg_)
      return {reduceIdentity(b.getContext(), op_.kind(), accumulate_)};
    OpKind like = op_.kind() == OpKind::ArgMax ? OpKind::ReduceMax : OpKind::ReduceMin;
    return {reduceIdentity(b.getContext(), like, type()), b.getInt64(0)};
  }

  /// Adds element `value`, at position `position` along the reduced dim
  /// (argmax/argmin only).
  std::vector<llvm::Value *> step(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state,
                                  llvm::Value *value, llvm::Value *position) const {
    if (flagged_)
      return emitFlaggedExtremumStep(b, op_.kind(), state, value);
    if (unflagged_)
      return {emitUnflaggedMaximumStep(b, state[0], value)};
    if (!isArg_) {
      if (accumulate_ != type())
        value = b.CreateFPExt(value, computeType(b.getContext(), accumulate_));
      return {emitReduceStep(b, op_.kind(), accumulate_, state[0], value)};
    }
    llvm::Value *beats = emitArgBeats(b, type(), op_.kind() == OpKind::ArgMax, value, state[0]);
    return {b.CreateSelect(beats, value, state[0]), b.CreateSelect(beats, position, state[1])};
  }

  /// Whether combine() merges two states (all but the flagged form, which
  /// is only for vectorized loops).
  bool mergeable() const { return !flagged_; }

  /// Combines a state with another partial state of the same reduction.
  /// argmax/argmin: the better value wins, and of equal values (or two
  /// NaNs) the smaller index, which is the first extreme wherever the two
  /// states' elements lay in the row.
  std::vector<llvm::Value *> combine(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state,
                                     llvm::ArrayRef<llvm::Value *> other) const {
    assert(mergeable() && "flagged states are not merged");
    if (!isArg_)
      return {emitReduceStep(b, op_.kind(), accumulate_, state[0], other[0])};
    bool wantMax = op_.kind() == OpKind::ArgMax;
    llvm::Value *otherBeats = emitArgBeats(b, type(), wantMax, other[0], state[0]);
    llvm::Value *stateBeats = emitArgBeats(b, type(), wantMax, state[0], other[0]);
    llvm::Value *tie = b.CreateNot(b.CreateOr(otherBeats, stateBeats));
    llvm::Value *takeOther =
        b.CreateOr(otherBeats, b.CreateAnd(tie, b.CreateICmpSLT(other[1], state[1])));
    return {b.CreateSelect(takeOther, other[0], state[0]),
            b.CreateSelect(takeOther, other[1], state[1])};
  }

  llvm::Value *result(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> state) const {
    if (flagged_)
      return emitFlaggedExtremumResult(b, op_.kind(), state);
    if (isArg_)
      return state[1];
    if (accumulate_ != type())
      return b.CreateFPTrunc(state[0], computeType(b.getContext(), type()));
    return state[0];
  }

private:
  const Operation &op_;
  bool isArg_ = false;
  bool flagged_ = false;
  bool unflagged_ = false;
  ElementType accumulate_;
  std::vector<bool> reduced_;
  std::vector<DimExpr> reducedShape_;
  std::vector<DimExpr> keptShape_;
};

/// Rows a column reduction adds per pass over its accumulators: fewer
/// accumulator loads and stores per element, and several row streams in
/// flight for the memory system (measured on x86: 4 cut f32[16384, 1024]
/// column sums by about a fifth against 1; with f64 sums, 8 against 4 cut
/// f32[65536, 1024] from 10.5 to 8.3 ms).
constexpr int64_t kColumnRowsPerStep = 8;

/// Stores the dominant's value, then the group's other outputs of its shape
/// (which read the dominant back from memory).
void storeReduced(GroupEmission &group, llvm::Value *value, const std::vector<llvm::Value *> &index,
                  llvm::Value *linear) {
  KernelContext &ctx = group.gen.context();
  const Value *dominant = group.group.dominant->result();
  const GroupOutput *stored = nullptr;
  for (const GroupOutput &output : group.outputs) {
    if (output.value != dominant)
      continue;
    llvm::Value *position = linear;
    if (output.blockLocal)
      position = ctx.b.CreateSub(linear, output.origin, "", /*HasNUW=*/true, /*HasNSW=*/true);
    storeElement(ctx.b, dominant->type().elementType(), value, output.base, position);
    stored = &output;
  }
  if (!stored) {
    ctx.fail("the reduction " + dominant->name() + " is not written to memory");
    return;
  }
  group.gen.setMaterialized(dominant, stored->base, stored->blockLocal ? stored->origin : nullptr);
  GroupEmission others{group.gen, group.group, {}, group.description};
  for (const GroupOutput &output : group.outputs)
    if (output.value != dominant)
      others.outputs.push_back(output);
  storeGroupOutputs(others, dominant->type().shape(), index, linear);
}

/// Half-open range [begin, end) of items `block` covers with `perBlock` each.
std::pair<llvm::Value *, llvm::Value *> blockRange(llvm::IRBuilder<> &b, llvm::Value *block,
                                                   int64_t perBlock, llvm::Value *total) {
  perBlock = std::max<int64_t>(perBlock, 1);
  llvm::Value *begin = b.CreateMul(block, b.getInt64(perBlock));
  return {begin, emitMin(b, b.CreateAdd(begin, b.getInt64(perBlock)), total)};
}

} // namespace

llvm::Value *emitReduceAt(ElementGenerator &gen, const Operation &op,
                          const std::vector<llvm::Value *> &resultIndex) {
  llvm::IRBuilder<> &b = gen.context().b;
  Reduction reduction(op, /*inRegisters=*/true, /*wideSums=*/false, &gen.context().body);
  llvm::Value *count = gen.dim(dimProduct(reduction.reducedShape()));
  LoopResult loop = emitLoop(
      b, b.getInt64(0), count, reduction.initial(b),
      [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *> state) {
        std::vector<llvm::Value *> reduced = gen.unravel(j, reduction.reducedShape());
        llvm::Value *value =
            gen.emit(reduction.operand(), reduction.operandIndex(resultIndex, reduced));
        return reduction.step(b, state, value, j);
      },
      "reduce");
  return reduction.result(b, loop.carried);
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
        llvm::Value *rowStart = b.CreateMul(row, cols, "", /*HasNUW=*/true, /*HasNSW=*/true);
        llvm::Value *laneBegin =
            splitLanes ? b.CreateAdd(colBegin, rowLanes.lane, "lane.col") : colBegin;
        LoopResult inner = emitStridedLoop(
            b, laneBegin, colEnd, splitLanes ? rowLanes.width : nullptr, initial,
            [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *> state) {
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
            },
            "col");
        // argmax/argmin carry an index through selects, which the vectorizer
        // does not handle: leave that loop to the cost model.
        if (!anyArg)
          ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips);
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

namespace {

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
  int64_t capacity = std::max<int64_t>(group.description.blockBufferBytes / stateBytes, 1);
  int64_t tile = mapping.colsPerBlock > 0 ? std::min(mapping.colsPerBlock, capacity)
                                          : std::min<int64_t>(capacity, 4096);
  std::vector<std::vector<llvm::Value *>> accumulators(reductions.size());
  for (size_t i = 0; i < reductions.size(); ++i)
    for (llvm::Type *t : stateTypes[i])
      accumulators[i].push_back(ctx.target.allocateBlockBuffer(b, t, b.getInt64(tile)));
  // GPUs: each lane owns the tile's columns c = lane (mod lanes), which it
  // alone initializes, accumulates over every row and stores, so no two
  // lanes share an accumulator; adjacent lanes read adjacent columns. One
  // lane (CPU): the loops as they are.
  llvm::Value *lanes = ctx.target.laneCount(b);
  bool splitLanes = !isSingleLane(lanes);
  llvm::Value *firstColumn = splitLanes ? ctx.target.laneId(b) : b.getInt64(0);
  llvm::Value *columnStep = splitLanes ? lanes : nullptr;
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
        std::vector<std::vector<llvm::Value *>> init;
        for (const ColumnReduction &r : reductions)
          init.push_back(r.reduction->initial(b));
        LoopResult initLoop = emitStridedLoop(
            b, firstColumn, width, columnStep, {},
            [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
              for (size_t i = 0; i < reductions.size(); ++i)
                for (size_t s = 0; s < accumulators[i].size(); ++s)
                  b.CreateStore(init[i][s],
                                b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s], c));
              return std::vector<llvm::Value *>{};
            },
            "init");
        ctx.target.annotateInnerLoop(initLoop.latch, initLoop.constantTrips);
        // `unroll` rows per column step load and store each accumulator once
        // and keep that many row streams in flight; the steps stay in row
        // order, so every kind (argmax/argmin too) accumulates as one row at
        // a time would.
        auto emitRows = [&](llvm::Value *firstRow, llvm::Value *groups, int64_t unroll) {
          LoopResult rows = emitLoop(
              b, b.getInt64(0), groups, {},
              [&](llvm::Value *rowGroup, llvm::ArrayRef<llvm::Value *>) {
                llvm::Value *groupRow =
                    b.CreateAdd(firstRow, b.CreateMul(rowGroup, b.getInt64(unroll)));
                LoopResult inner = emitStridedLoop(
                    b, firstColumn, width, columnStep, {},
                    [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
                      llvm::Value *col = b.CreateAdd(tileBegin, c);
                      std::vector<llvm::Value *> kept = keptAt(col);
                      for (size_t i = 0; i < reductions.size(); ++i) {
                        const Reduction &reduction = *reductions[i].reduction;
                        std::vector<llvm::Value *> addresses, state;
                        for (size_t s = 0; s < accumulators[i].size(); ++s) {
                          addresses.push_back(
                              b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s], c));
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
                            partial = partial ? emitReduceStep(b, reduction.kind(),
                                                               reduction.type(), partial, value)
                                              : value;
                        }
                        if (partial)
                          state = reduction.step(b, state, partial, groupRow);
                        for (size_t s = 0; s < accumulators[i].size(); ++s)
                          b.CreateStore(state[s], addresses[s]);
                      }
                      return std::vector<llvm::Value *>{};
                    },
                    "col");
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
        LoopResult store = emitStridedLoop(
            b, firstColumn, width, columnStep, {},
            [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
              llvm::Value *col = b.CreateAdd(tileBegin, c);
              std::vector<llvm::Value *> kept = keptAt(col);
              for (size_t i = 0; i < reductions.size(); ++i) {
                std::vector<llvm::Value *> state;
                for (size_t s = 0; s < accumulators[i].size(); ++s)
                  state.push_back(
                      b.CreateLoad(stateTypes[i][s],
                                   b.CreateInBoundsGEP(stateTypes[i][s], accumulators[i][s], c)));
                reductions[i].finish(col, kept, state);
              }
              return std::vector<llvm::Value *>{};
            },
            "store");
        ctx.target.annotateInnerLoop(store.latch, store.constantTrips);
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
    llvm::Value *count = gen.dim(dimProduct(reduction.reducedShape()));
    llvm::Value *lane = ctx.target.laneId(b);
    emitLoop(
        b, begin, end, {},
        [&](llvm::Value *position, llvm::ArrayRef<llvm::Value *>) {
          std::vector<llvm::Value *> index = gen.unravel(position, shape);
          LoopResult lanePart = emitStridedLoop(
              b, lane, count, lanes, reduction.initial(b),
              [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *> state) {
                std::vector<llvm::Value *> reduced = gen.unravel(j, reduction.reducedShape());
                llvm::Value *value =
                    gen.emit(reduction.operand(), reduction.operandIndex(index, reduced));
                return reduction.step(b, state, value, j);
              },
              "reduce");
          std::vector<llvm::Value *> merged = ctx.target.emitCrossLaneReduce(
              b, lanePart.carried,
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
