#include "backends/common/TransposeTiles.h"

#include <algorithm>

#include "backends/common/LoopBuilder.h"
#include "backends/common/TypeLowering.h"

namespace xs {

namespace {

/// I of a transposed block [J, I] -> [I, J]: the product of the result's
/// dims from the block's start to the last but one.
DimExpr transposedInner(const Operation &transpose) {
  const std::vector<DimExpr> &shape = transpose.type().shape();
  size_t start = *transposedBlockStart(transpose);
  return dimProduct({shape.begin() + static_cast<std::ptrdiff_t>(start), shape.end() - 1});
}

/// v[k] holds row k of a V x V tile; afterwards v[a] holds column a. Each
/// round swaps the off-diagonal d x d blocks of pairs of rows d apart.
void transposeInRegisters(llvm::IRBuilder<> &b, std::vector<llvm::Value *> &v) {
  int width = static_cast<int>(v.size());
  for (int d = width / 2; d >= 1; d /= 2) {
    std::vector<int> low(width), high(width);
    for (int e = 0; e < width; ++e) {
      bool upper = (e & d) != 0;
      low[e] = upper ? width + e - d : e;
      high[e] = upper ? width + e : e + d;
    }
    for (int k = 0; k < width; ++k) {
      if ((k & d) != 0)
        continue;
      llvm::Value *first = v[k], *second = v[k + d];
      v[k] = b.CreateShuffleVector(first, second, low);
      v[k + d] = b.CreateShuffleVector(first, second, high);
    }
  }
}

/// for (i = begin; i < end; i += step) body(i), carrying nothing.
void emitStridedSteps(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end, llvm::Value *step,
                      const char *name, const std::function<void(llvm::Value *)> &body) {
  emitStridedLoop(
      b, begin, end, step, {},
      [&](llvm::Value *index, llvm::ArrayRef<llvm::Value *>) {
        body(index);
        return std::vector<llvm::Value *>{};
      },
      name);
}

} // namespace

bool isRegisterTranspose(GroupEmission &group) {
  KernelContext &ctx = group.gen.context();
  const PlanGroup &plan = group.group;
  int64_t width = plan.mapping.vectorWidth;
  if (plan.ops.size() != 1 || !transposedBlockStart(*plan.dominant) || width < 2 ||
      (width & (width - 1)) != 0 || width > 64 || !isSingleLane(ctx.target.laneCount(ctx.b)))
    return false;
  if (group.gen.wholeTensorBase(plan.dominant->operand(0)) == nullptr)
    return false;
  for (const GroupOutput &output : group.outputs)
    if (output.blockLocal || output.value != plan.dominant->result())
      return false;
  return !group.outputs.empty();
}

void emitTransposeTiles(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                        llvm::Value *colBegin, llvm::Value *colEnd,
                        const ElementLoop &elementLoop) {
  ElementGenerator &gen = group.gen;
  llvm::IRBuilder<> &b = gen.context().b;
  const Operation &transpose = *group.group.dominant;
  const std::vector<DimExpr> &shape = transpose.type().shape();
  const ThreadMapping &mapping = group.group.mapping;
  int64_t width = mapping.vectorWidth;
  // Blocks of more columns than rows (PlanMapping's tiles for long output
  // rows) are walked output rows first; square ones input rows first.
  bool tall = mapping.colsPerBlock > mapping.rowsPerBlock;
  llvm::Value *v = b.getInt64(width);
  // Output [..., I, J] from input [..., J, I], I the dims from the block's
  // start to the last collapsed; rows are the leading dims and I collapsed,
  // cols are J.
  llvm::Value *inner = gen.dim(transposedInner(transpose));
  llvm::Value *cols = gen.dim(shape.back());
  // Whole V x V tiles cover exactly the block when its bounds and I and J
  // are multiples of V (the transpose's own tiles are; a group that follows
  // another's rows may not be).
  llvm::Value *mask = b.getInt64(width - 1);
  llvm::Value *bounds = b.CreateOr(b.CreateOr(rowBegin, rowEnd), b.CreateOr(colBegin, colEnd));
  llvm::Value *aligned =
      b.CreateICmpEQ(b.CreateAnd(b.CreateOr(b.CreateOr(inner, cols), bounds), mask), b.getInt64(0),
                     "tiles.aligned");

  ElementType type = transpose.type().elementType();
  llvm::Type *element = storageType(b.getContext(), type);
  llvm::Type *vector = llvm::FixedVectorType::get(element, static_cast<unsigned>(width));
  llvm::Align align(static_cast<uint64_t>(elementByteSize(type)));
  llvm::Value *input = gen.wholeTensorBase(transpose.operand(0));
  // The cache lines a row of a tile spans (prefetched a step ahead).
  int64_t lineCount = std::max<int64_t>(1, width * elementByteSize(type) / kCacheLineBytes);
  // Where output row `row`'s V x V tile reads: its input rows start at
  // inputRows + col, its column is i (rows row..row+V-1 share their leading
  // index: I % V == 0).
  struct RowBlock {
    llvm::Value *inputRows, *i;
  };
  auto rowBlock = [&](llvm::Value *row) {
    llvm::Value *lead = b.CreateUDiv(row, inner);
    return RowBlock{b.CreateMul(lead, cols), b.CreateSub(row, b.CreateMul(lead, inner))};
  };
  auto inputAt = [&](const RowBlock &r, llvm::Value *col, int64_t k) {
    llvm::Value *inputRow = b.CreateAdd(r.inputRows, b.CreateAdd(col, b.getInt64(k)));
    return b.CreateGEP(element, input, b.CreateAdd(b.CreateMul(inputRow, inner), r.i));
  };
  // The V x V tile at (row, col): V loads, the shuffles, V stores.
  auto moveTile = [&](llvm::Value *row, const RowBlock &r, llvm::Value *col) {
    std::vector<llvm::Value *> tile;
    for (int64_t k = 0; k < width; ++k)
      tile.push_back(b.CreateAlignedLoad(vector, inputAt(r, col, k), align, "tile.row"));
    transposeInRegisters(b, tile);
    for (int64_t a = 0; a < width; ++a) {
      llvm::Value *at = b.CreateAdd(b.CreateMul(b.CreateAdd(row, b.getInt64(a)), cols), col);
      for (const GroupOutput &output : group.outputs)
        b.CreateAlignedStore(tile[static_cast<size_t>(a)], b.CreateGEP(element, output.base, at),
                             align);
    }
  };
  auto strided = [&](llvm::Value *begin, llvm::Value *end, const char *name,
                     const std::function<void(llvm::Value *)> &body) {
    emitStridedSteps(b, begin, end, v, name, body);
  };
  // The tiles of rows [rBegin, rEnd) x columns [cBegin, cEnd), whole tiles
  // whose rows share their leading index.
  auto walkTiles = [&](llvm::Value *rBegin, llvm::Value *rEnd, llvm::Value *cBegin,
                       llvm::Value *cEnd) {
    if (tall) {
      // Output rows outer, output columns inner: each step writes the next
      // V elements of the same V output rows (runs as long as the block's
      // columns), reading V other input rows, which the block's tile keeps
      // in cache for the next output rows.
      strided(rBegin, rEnd, "tile.row", [&](llvm::Value *row) {
        RowBlock r = rowBlock(row);
        strided(cBegin, cEnd, "tile.col", [&](llvm::Value *col) { moveTile(row, r, col); });
      });
      return;
    }
    // Square tiles, input rows outer: the V input rows a step reads are
    // read on, 64 bytes further each step, and the rows the next step of
    // the outer loop reads are prefetched at the columns this step reads
    // (demand misses on V pages at a time otherwise).
    strided(cBegin, cEnd, "tile.col", [&](llvm::Value *col) {
      strided(rBegin, rEnd, "tile.row", [&](llvm::Value *row) {
        RowBlock r = rowBlock(row);
        for (int64_t k = 0; k < width; ++k)
          for (int64_t line = 0; line < lineCount; ++line)
            emitPrefetch(b, b.CreateGEP(b.getInt8Ty(), inputAt(r, col, width + k),
                                        b.getInt64(line * kCacheLineBytes)));
        moveTile(row, r, col);
      });
    });
  };
  // n rounded down to a multiple of V.
  auto wholeTiles = [&](llvm::Value *n) { return b.CreateAnd(n, b.getInt64(~(width - 1))); };
  emitIfElseValues(
      b, aligned,
      [&] {
        walkTiles(rowBegin, rowEnd, colBegin, colEnd);
        return std::vector<llvm::Value *>{};
      },
      [&] {
        // Dims that are not multiples of V (a sequence of 77): the whole
        // tiles of each run of rows that share a leading index (unaligned
        // vector loads and stores), the element loop for what is left of
        // the run's rows and columns, under V of each. A 2-D transpose is
        // one run.
        llvm::Value *tileColsEnd = b.CreateAdd(colBegin, wholeTiles(b.CreateSub(colEnd, colBegin)));
        llvm::Value *firstLead = b.CreateUDiv(rowBegin, inner);
        llvm::Value *leadEnd =
            emitMax(b, firstLead,
                    b.CreateUDiv(b.CreateAdd(rowEnd, b.CreateSub(inner, b.getInt64(1))), inner));
        emitStridedSteps(b, firstLead, leadEnd, b.getInt64(1), "tile.run", [&](llvm::Value *lead) {
          llvm::Value *start = b.CreateMul(lead, inner);
          llvm::Value *runBegin = emitMax(b, rowBegin, start);
          // Not before runBegin where a block past the end has rowEnd < rowBegin.
          llvm::Value *runEnd = emitMax(b, runBegin, emitMin(b, rowEnd, b.CreateAdd(start, inner)));
          llvm::Value *tileRowsEnd =
              b.CreateAdd(runBegin, wholeTiles(b.CreateSub(runEnd, runBegin)));
          walkTiles(runBegin, tileRowsEnd, colBegin, tileColsEnd);
          elementLoop(runBegin, tileRowsEnd, tileColsEnd, colEnd);
          elementLoop(tileRowsEnd, runEnd, colBegin, colEnd);
        });
        return std::vector<llvm::Value *>{};
      });
}

bool isStagedTranspose(GroupEmission &group) {
  const PlanGroup &plan = group.group;
  if (!group.staging || plan.ops.size() != 1 || !transposedBlockStart(*plan.dominant) ||
      plan.mapping.rowsPerBlock < 1 || plan.mapping.colsPerBlock < 1)
    return false;
  if (group.gen.wholeTensorBase(plan.dominant->operand(0)) == nullptr)
    return false;
  for (const GroupOutput &output : group.outputs)
    if (output.blockLocal || output.value != plan.dominant->result())
      return false;
  return !group.outputs.empty();
}

void emitStagedTranspose(GroupEmission &group, llvm::Value *rowBegin, llvm::Value *rowEnd,
                         llvm::Value *colBegin, llvm::Value *colEnd) {
  ElementGenerator &gen = group.gen;
  KernelContext &ctx = gen.context();
  llvm::IRBuilder<> &b = ctx.b;
  const Operation &transpose = *group.group.dominant;
  const std::vector<DimExpr> &shape = transpose.type().shape();
  // Output [..., I, J] from input [..., J, I] (I collapsed as above); output
  // rows are the leading dims and I collapsed, cols are J. The staging tile holds the block's
  // tile column-major: column jj of the output tile is its row jj, of
  // tileRows + 1 elements (the padding).
  llvm::Value *inner = gen.dim(transposedInner(transpose));
  llvm::Value *cols = gen.dim(shape.back());
  llvm::Value *pitch = b.getInt64(group.group.mapping.rowsPerBlock + 1);
  llvm::Value *tileRows = b.CreateSub(rowEnd, rowBegin), *tileCols = b.CreateSub(colEnd, colBegin);
  ElementType type = transpose.type().elementType();
  llvm::Type *element = storageType(b.getContext(), type);
  llvm::Value *input = gen.wholeTensorBase(transpose.operand(0));
  llvm::Value *lane = ctx.target.laneId(b), *lanes = ctx.target.laneCount(b);
  auto lanesOver = [&](llvm::Value *count, const char *name,
                       const std::function<void(llvm::Value *)> &body) {
    emitStridedSteps(b, lane, count, lanes, name, body);
  };
  auto each = [&](llvm::Value *count, const char *name,
                  const std::function<void(llvm::Value *)> &body) {
    emitLoop(
        b, b.getInt64(0), count, {},
        [&](llvm::Value *k, llvm::ArrayRef<llvm::Value *>) {
          body(k);
          return std::vector<llvm::Value *>{};
        },
        name);
  };
  // Lane rr reads output row rowBegin + rr: input elements (lead, j, i) for
  // the tile's j, adjacent lanes at adjacent i.
  lanesOver(tileRows, "stage.row", [&](llvm::Value *rr) {
    llvm::Value *row = b.CreateAdd(rowBegin, rr);
    llvm::Value *lead = b.CreateUDiv(row, inner);
    llvm::Value *i = b.CreateSub(row, b.CreateMul(lead, inner));
    llvm::Value *inputRows = b.CreateMul(lead, cols);
    each(tileCols, "stage.col", [&](llvm::Value *jj) {
      llvm::Value *j = b.CreateAdd(colBegin, jj);
      llvm::Value *at = b.CreateAdd(b.CreateMul(b.CreateAdd(inputRows, j), inner), i);
      llvm::Value *value = b.CreateLoad(element, b.CreateInBoundsGEP(element, input, at));
      b.CreateStore(value, b.CreateInBoundsGEP(element, group.staging,
                                               b.CreateAdd(b.CreateMul(jj, pitch), rr)));
    });
  });
  ctx.target.emitBlockBarrier(b);
  // Lane jj writes output column colBegin + jj, adjacent lanes at adjacent j.
  lanesOver(tileCols, "unstage.col", [&](llvm::Value *jj) {
    llvm::Value *j = b.CreateAdd(colBegin, jj);
    each(tileRows, "unstage.row", [&](llvm::Value *rr) {
      llvm::Value *value =
          b.CreateLoad(element, b.CreateInBoundsGEP(element, group.staging,
                                                    b.CreateAdd(b.CreateMul(jj, pitch), rr)));
      llvm::Value *at = b.CreateAdd(b.CreateMul(b.CreateAdd(rowBegin, rr), cols), j);
      for (const GroupOutput &output : group.outputs)
        b.CreateStore(value, b.CreateInBoundsGEP(element, output.base, at));
    });
  });
  // The staging tile is read by every lane before anything rewrites it (the
  // next tile of a group striding over its blocks).
  ctx.target.emitBlockBarrier(b);
}

} // namespace xs
