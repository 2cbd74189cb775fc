#include "backends/common/GroupEmitter.h"

#include "backends/common/LoopBuilder.h"
#include "backends/common/TransposeTiles.h"
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

ColumnStrip columnStripRowsFirst(llvm::IRBuilder<> &b, llvm::Value *blockId, llvm::Value *rows,
                                 int64_t rowsPerBlock, llvm::Value *cols, int64_t colsPerBlock) {
  llvm::Value *height = b.getInt64(std::max<int64_t>(rowsPerBlock, 1));
  // No rows: every block is past the end (avoid a division by zero).
  llvm::Value *rowBlocks =
      emitMax(b, b.CreateUDiv(b.CreateAdd(rows, b.CreateSub(height, b.getInt64(1))), height),
              b.getInt64(1));
  ColumnStrip strip{b.CreateURem(blockId, rowBlocks), b.getInt64(0), cols};
  if (colsPerBlock > 0) {
    llvm::Value *width = b.getInt64(colsPerBlock);
    strip.begin = b.CreateMul(b.CreateUDiv(blockId, rowBlocks), width);
    strip.end = emitMin(b, b.CreateAdd(strip.begin, width), cols);
  }
  return strip;
}

int64_t narrowVectorWidth(const PlanGroup &group) {
  ElementType streamed = streamedElementType(*group.dominant);
  bool narrow = streamed == ElementType::F16 || streamed == ElementType::BF16;
  return narrow ? group.mapping.vectorWidth : 0;
}

RowLanes rowLanesOf(KernelContext &ctx, const ThreadMapping &mapping) {
  llvm::IRBuilder<> &b = ctx.b;
  RowLanes r;
  llvm::Value *lanes = ctx.target.laneCount(b);
  if (isSingleLane(lanes))
    return r;
  r.split = true;
  llvm::Value *lane = ctx.target.laneId(b);
  if (mapping.rowLanes <= 0) {
    r.lane = lane;
    r.width = lanes;
    return r;
  }
  r.packed = true;
  r.rowLanes = mapping.rowLanes;
  r.width = b.getInt64(mapping.rowLanes);
  r.lane = b.CreateURem(lane, r.width, "row.lane");
  r.group = b.CreateUDiv(lane, r.width, "row.group");
  r.groups = b.CreateUDiv(lanes, r.width, "row.groups");
  return r;
}

LoopResult emitBlockRows(
    ElementGenerator &gen, const RowLanes &lanes, llvm::Value *begin, llvm::Value *end,
    const std::vector<DimExpr> &keptShape,
    const std::function<void(llvm::Value *row, const std::vector<llvm::Value *> &kept)> &body) {
  llvm::IRBuilder<> &b = gen.context().b;
  if (!lanes.packed)
    // The row's multi-index is carried from row to row (no division per row).
    return emitLoop(
        b, begin, end, gen.unravelStart(begin, keptShape),
        [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *> carried) {
          std::vector<llvm::Value *> kept(carried.begin(), carried.end());
          body(row, kept);
          return gen.advance(kept, keptShape);
        },
        "row");
  return emitStridedLoop(
      b, b.CreateAdd(begin, lanes.group), end, lanes.groups, {},
      [&](llvm::Value *row, llvm::ArrayRef<llvm::Value *>) {
        body(row, gen.unravel(row, keptShape));
        return std::vector<llvm::Value *>{};
      },
      "row");
}

LoopResult emitRowColumns(KernelContext &ctx, const RowLanes &lanes, int64_t vectorWidth,
                          llvm::Value *row, llvm::Value *cols, llvm::Value *begin, llvm::Value *end,
                          llvm::ArrayRef<llvm::Value *> initial, const RowColumnBody &body) {
  llvm::IRBuilder<> &b = ctx.b;
  auto columns = [&](llvm::Value *rowStart, llvm::Value *first, llvm::Value *step) {
    return emitStridedLoop(
        b, first, end, step, initial,
        [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *> carried) {
          return body(col, rowStart, carried);
        },
        "col");
  };
  if (!lanes.split)
    return columns(b.CreateMul(row, cols, "", /*HasNUW=*/true, /*HasNSW=*/true), begin, nullptr);
  auto scalar = [&] {
    return columns(b.CreateMul(row, cols, "", /*HasNUW=*/true, /*HasNSW=*/true),
                   b.CreateAdd(begin, lanes.lane, "lane.col"), lanes.width);
  };
  if (vectorWidth <= 1)
    return scalar();

  // Runs of V: the strip's bounds and the row's start are multiples of V,
  // and the lanes have V columns each at least (fewer would leave lanes idle
  // that one column each keeps busy).
  llvm::Value *misaligned =
      b.CreateAnd(b.CreateOr(b.CreateOr(cols, begin), end), b.getInt64(vectorWidth - 1));
  llvm::Value *runStep = b.CreateMul(lanes.width, b.getInt64(vectorWidth), "run.step");
  llvm::Value *runs = b.CreateAnd(b.CreateICmpEQ(misaligned, b.getInt64(0)),
                                  b.CreateICmpSGE(b.CreateSub(end, begin), runStep), "runs");
  LoopResult scalarLoop;
  LoopResult result;
  result.carried = emitIfElseValues(
      b, runs,
      [&] {
        // Where runs are taken these masks change nothing, but they let
        // LLVM see that every run starts at a multiple of V.
        llvm::Value *mask = b.getInt64(-vectorWidth);
        llvm::Value *rowStart = b.CreateMul(row, b.CreateAnd(cols, mask, "cols.runs"), "",
                                            /*HasNUW=*/true, /*HasNSW=*/true);
        llvm::Value *first =
            b.CreateAdd(b.CreateAnd(begin, mask),
                        b.CreateMul(lanes.lane, b.getInt64(vectorWidth), "", /*HasNUW=*/true,
                                    /*HasNSW=*/true),
                        "lane.run");
        LoopResult runLoop = emitStridedRuns(
            b, first, end, runStep, vectorWidth, initial,
            [&](llvm::Value *col, llvm::ArrayRef<llvm::Value *> carried) {
              return body(col, rowStart, carried);
            },
            "run");
        // Two runs an iteration: a lane issues the second run's loads
        // before the first's results are stored (the buffers are distinct:
        // markArgumentBuffersDistinct), twice the bytes in flight that a
        // memory-bound GPU kernel needs, where one vector a lane at a time
        // leaves HBM idle between a lane's round trips.
        setUnrollCount(runLoop.latch, 2);
        return runLoop.carried;
      },
      [&] {
        scalarLoop = scalar();
        return scalarLoop.carried;
      });
  result.latch = scalarLoop.latch;
  return result;
}

std::vector<llvm::Value *> mergeRowLanes(KernelContext &ctx, const RowLanes &lanes,
                                         llvm::ArrayRef<llvm::Value *> state,
                                         const LaneCombine &combine) {
  if (!lanes.split)
    return state.vec();
  if (!lanes.packed)
    return ctx.target.emitCrossLaneReduce(ctx.b, state, combine);
  if (lanes.rowLanes == 1)
    return state.vec();
  if (lanes.rowLanes == ctx.target.description().warpWidth)
    return ctx.target.emitWarpReduce(ctx.b, state, combine);
  ctx.fail("rows packed " + std::to_string(lanes.rowLanes) +
           " lanes each merge over neither one lane nor a warp");
  return state.vec();
}

void setTileOrigins(GroupEmission &group, const std::vector<DimExpr> &shape, llvm::Value *origin) {
  for (GroupOutput &output : group.outputs)
    if (output.blockLocal && output.value->type().shape() == shape)
      output.origin = origin;
}

void storeGroupOutputs(GroupEmission &group, const std::vector<DimExpr> &shape,
                       const std::vector<llvm::Value *> &index, llvm::Value *linear,
                       const OutputElement &element) {
  KernelContext &ctx = group.gen.context();
  group.gen.setElementPosition(shape, index, linear);
  for (const GroupOutput &output : group.outputs) {
    if (output.value->type().shape() != shape)
      continue;
    llvm::Value *value = element ? element(output.value) : nullptr;
    if (!value)
      value = group.gen.emit(output.value, index);
    llvm::Value *position = linear;
    if (output.blockLocal) {
      if (!output.origin) {
        ctx.fail("block buffer of " + output.value->name() + " has no tile origin");
        continue;
      }
      position = ctx.b.CreateSub(linear, output.origin, "", /*HasNUW=*/true, /*HasNSW=*/true);
    }
    storeElement(ctx.b, output.value->type().elementType(), value, output.base, position,
                 ctx.target.bfloatRounding());
  }
  group.gen.clearElementPosition();
}

namespace {
/// The element loop over the block's tile: rows (the `leading` dims
/// collapsed) and the columns of each (the `trailing` dims).
void emitElementLoop(GroupEmission &group, const std::vector<DimExpr> &leading,
                     const std::vector<DimExpr> &trailing, llvm::Value *cols, llvm::Value *rowBegin,
                     llvm::Value *rowEnd, llvm::Value *colBegin, llvm::Value *colEnd);
} // namespace

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
  auto [rowBlock, colBegin, colEnd] =
      mapping.rowBlocksFirst
          ? columnStripRowsFirst(b, blockId, rows, mapping.rowsPerBlock, cols, mapping.colsPerBlock)
          : columnStrip(b, blockId, cols, mapping.colsPerBlock);
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

  if (isRegisterTranspose(group))
    emitTransposeTiles(
        group, rowBegin, rowEnd, colBegin, colEnd,
        [&](llvm::Value *rBegin, llvm::Value *rEnd, llvm::Value *cBegin, llvm::Value *cEnd) {
          emitElementLoop(group, leading, trailing, cols, rBegin, rEnd, cBegin, cEnd);
        });
  else if (isStagedTranspose(group))
    emitStagedTranspose(group, rowBegin, rowEnd, colBegin, colEnd);
  else
    emitElementLoop(group, leading, trailing, cols, rowBegin, rowEnd, colBegin, colEnd);
}

namespace {
/// The concats along the last dim and the pads of it that the group's
/// outputs compute at the loop's own index, when the element loop's columns
/// are that dim alone and the lanes do not split them; all of them cut that
/// dim where the first does (the others keep their selects and clamps).
struct ColumnPieces {
  std::vector<const Operation *> ops;
  std::vector<DimExpr> begins, ends; // each piece's columns
};

ColumnPieces columnPieces(GroupEmission &group, const std::vector<DimExpr> &trailing,
                          const RowLanes &lanes) {
  ColumnPieces pieces;
  const std::vector<DimExpr> &shape = group.group.dominant->type().shape();
  if (trailing.size() != 1 || lanes.split)
    return pieces;
  size_t axis = shape.size() - 1;
  std::vector<DimExpr> sizes;
  for (const GroupOutput &output : group.outputs) {
    if (output.value->type().shape() != shape)
      continue;
    for (const Operation *op : group.gen.sameIndexPieceOps(output.value, axis)) {
      std::vector<DimExpr> extents = ElementGenerator::pieceExtents(*op, axis);
      if (pieces.ops.empty())
        sizes = extents;
      if (extents == sizes &&
          std::find(pieces.ops.begin(), pieces.ops.end(), op) == pieces.ops.end())
        pieces.ops.push_back(op);
    }
  }
  DimExpr offset(0);
  for (const DimExpr &size : sizes) {
    pieces.begins.push_back(offset);
    offset = offset + size;
    pieces.ends.push_back(offset);
  }
  return pieces;
}

/// The most operands an interleaved last dim is walked by (Interleave).
constexpr int64_t kMaxInterleaveFactor = 8;

/// An output whose last dim interleaves K values: a reshape from [..., W, K]
/// to [..., W*K] of concat(x_0, ..., x_{K-1}) along the last dim, each x_k of
/// shape [..., W, 1] (a resize by a whole factor as the ONNX importer writes
/// it: column j*K + k is x_k's column j), or of a broadcast along a new or
/// unit last dim (a nearest resize: every k the same element).
struct Interleave {
  const Value *output = nullptr;
  const Operation *source = nullptr; // the concat or the broadcast
  int64_t factor = 0;
  bool repeats = false; // a broadcast
};

std::optional<Interleave> interleaveOf(const Value *value) {
  const Operation *reshape = value->definingOp();
  if (!reshape || reshape->kind() != OpKind::Reshape)
    return std::nullopt;
  const Operation *source = reshape->operand(0)->definingOp();
  if (!source)
    return std::nullopt;
  const std::vector<DimExpr> &to = value->type().shape();
  const std::vector<DimExpr> &from = source->type().shape();
  std::optional<int64_t> factor = from.empty() ? std::nullopt : from.back().constantValue();
  if (to.empty() || from.size() != to.size() + 1 || !factor || *factor < 2 ||
      *factor > kMaxInterleaveFactor || from[from.size() - 2] * DimExpr(*factor) != to.back() ||
      !std::equal(to.begin(), to.end() - 1, from.begin()))
    return std::nullopt;
  auto last = static_cast<int64_t>(from.size()) - 1;
  if (source->kind() == OpKind::Concat && source->intAttrOr("dim", 0) == last &&
      static_cast<int64_t>(source->numOperands()) == *factor)
    return Interleave{value, source, *factor, /*repeats=*/false};
  if (source->kind() == OpKind::Broadcast) {
    // The last dim is new or repeats a unit dim of the operand.
    const std::vector<int64_t> &dims = source->attr("dims")->getIntList();
    for (size_t d = 0; d < dims.size(); ++d)
      if (dims[d] == last && source->operand(0)->type().dim(static_cast<int64_t>(d)) != DimExpr(1))
        return std::nullopt;
    return Interleave{value, source, *factor, /*repeats=*/true};
  }
  return std::nullopt;
}

/// The interleave the loop over the dominant's last dim can walk by its
/// operands' column: the columns are that dim alone and one lane takes them,
/// and a block's columns start at a multiple of the factor.
std::optional<Interleave> walkedInterleave(GroupEmission &group,
                                           const std::vector<DimExpr> &trailing,
                                           const RowLanes &lanes) {
  const ThreadMapping &mapping = group.group.mapping;
  if (trailing.size() != 1 || lanes.split)
    return std::nullopt;
  std::optional<Interleave> interleave = interleaveOf(group.group.dominant->result());
  if (!interleave || (mapping.colsPerBlock > 0 && mapping.colsPerBlock % interleave->factor != 0))
    return std::nullopt;
  return interleave;
}

void emitElementLoop(GroupEmission &group, const std::vector<DimExpr> &leading,
                     const std::vector<DimExpr> &trailing, llvm::Value *cols, llvm::Value *rowBegin,
                     llvm::Value *rowEnd, llvm::Value *colBegin, llvm::Value *colEnd) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const ThreadMapping &mapping = group.group.mapping;
  const std::vector<DimExpr> &shape = group.group.dominant->type().shape();
  RowLanes rowLanes = rowLanesOf(ctx, mapping);
  // A row crossing a concat's pieces, or a pad's, is walked one piece at a
  // time, so that each piece's loop reads its operand at consecutive
  // addresses.
  ColumnPieces pieces = columnPieces(group, trailing, rowLanes);
  int64_t innerTrips = 0;
  // An interleaved row is walked by its operands' column j, storing the K
  // columns j*K + k each step: the operands' reads stay consecutive and
  // the vectorizer interleaves K vectors with shuffles, where a loop over
  // the output's columns would gather each operand's columns.
  if (std::optional<Interleave> interleave =
          pieces.ops.empty() ? walkedInterleave(group, trailing, rowLanes) : std::nullopt) {
    llvm::Value *factor = b.getInt64(interleave->factor);
    LoopResult rowLoop = emitBlockRows(
        gen, rowLanes, rowBegin, rowEnd, leading,
        [&](llvm::Value *row, const std::vector<llvm::Value *> &prefix) {
          LoopResult inner = emitRowColumns(
              ctx, rowLanes, /*vectorWidth=*/1, row, cols, b.CreateExactUDiv(colBegin, factor),
              b.CreateExactUDiv(colEnd, factor), {},
              [&](llvm::Value *col, llvm::Value *rowStart, llvm::ArrayRef<llvm::Value *>) {
                std::vector<llvm::Value *> operandIndex = prefix;
                operandIndex.push_back(col);
                operandIndex.push_back(b.getInt64(0));
                // A broadcast's element is the same for every k.
                llvm::Value *repeated = interleave->repeats
                                            ? gen.emit(interleave->source->result(), operandIndex)
                                            : nullptr;
                llvm::Value *first = b.CreateMul(col, factor, "", /*HasNUW=*/true, /*HasNSW=*/true);
                for (int64_t k = 0; k < interleave->factor; ++k) {
                  llvm::Value *column =
                      b.CreateAdd(first, b.getInt64(k), "", /*HasNUW=*/true, /*HasNSW=*/true);
                  std::vector<llvm::Value *> index = prefix;
                  index.push_back(column);
                  storeGroupOutputs(
                      group, shape, index,
                      b.CreateAdd(rowStart, column, "", /*HasNUW=*/true, /*HasNSW=*/true),
                      [&](const Value *output) -> llvm::Value * {
                        if (output != interleave->output)
                          return nullptr;
                        if (repeated)
                          return repeated;
                        return gen.emit(interleave->source->operand(static_cast<size_t>(k)),
                                        operandIndex);
                      });
                }
                return std::vector<llvm::Value *>{};
              });
          ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips,
                                       narrowVectorWidth(group.group));
        });
    ctx.target.annotateRowLoop(rowLoop.latch);
    return;
  }
  LoopResult rowLoop = emitBlockRows(
      gen, rowLanes, rowBegin, rowEnd, leading,
      [&](llvm::Value *row, const std::vector<llvm::Value *> &prefix) {
        auto columns = [&](llvm::Value *begin, llvm::Value *end, std::optional<size_t> piece) {
          // The row's lanes split the columns (CPU: one lane, the loop as is).
          LoopResult inner = emitRowColumns(
              ctx, rowLanes, mapping.vectorWidth, row, cols, begin, end, {},
              [&](llvm::Value *col, llvm::Value *rowStart, llvm::ArrayRef<llvm::Value *>) {
                std::vector<llvm::Value *> index = prefix;
                std::vector<llvm::Value *> suffix = gen.unravel(col, trailing);
                index.insert(index.end(), suffix.begin(), suffix.end());
                llvm::Value *linear =
                    b.CreateAdd(rowStart, col, "", /*HasNUW=*/true, /*HasNSW=*/true);
                if (piece)
                  for (const Operation *op : pieces.ops)
                    gen.setColumnPiece(op, *piece, index.back());
                storeGroupOutputs(group, shape, index, linear);
                gen.clearColumnPieces();
                return std::vector<llvm::Value *>{};
              });
          ctx.target.annotateInnerLoop(inner.latch, inner.constantTrips,
                                       narrowVectorWidth(group.group));
          innerTrips = piece ? 0 : inner.constantTrips;
        };
        if (pieces.ops.empty()) {
          columns(colBegin, colEnd, std::nullopt);
          return;
        }
        for (size_t j = 0; j < pieces.begins.size(); ++j)
          columns(emitMax(b, colBegin, gen.dim(pieces.begins[j])),
                  emitMin(b, colEnd, gen.dim(pieces.ends[j])), j);
      });
  // Rows of one element are the vector work themselves (a per-row value).
  if (innerTrips != 1)
    ctx.target.annotateRowLoop(rowLoop.latch);
}
} // namespace

} // namespace xs
