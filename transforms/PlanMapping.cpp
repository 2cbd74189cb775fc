// Thread mappings and variants of one-op kernels (AStitch's adaptive thread
// mapping, restricted to one group): which iteration space an op has, how
// many rows or columns a block takes, and which variants a symbolic dim
// calls for. Every parameter comes from the TargetDescription.

#include <algorithm>
#include <optional>

#include "transforms/PlanInternal.h"

namespace xs::plan {

namespace {

/// Product of dims [begin, end) of a shape.
DimExpr productOf(const std::vector<DimExpr> &shape, size_t begin, size_t end) {
  return dimProduct(std::vector<DimExpr>(shape.begin() + begin, shape.begin() + end));
}

/// Element-wise over a shape: rows = all but the last dim, cols = the last.
MappingShape elementwiseOver(const std::vector<DimExpr> &shape) {
  MappingShape m;
  m.kind = MappingKind::Elementwise;
  if (shape.empty())
    return m;
  m.rows = productOf(shape, 0, shape.size() - 1);
  m.cols = shape.back();
  m.rowWork = m.cols;
  return m;
}

/// Generic: one row per output element (cols = 1), each looping over the
/// `reduced` elements it depends on.
MappingShape genericOver(const Operation &op, DimExpr reduced) {
  MappingShape m;
  m.kind = MappingKind::Generic;
  m.rows = op.type().numElements();
  m.rowWork = std::move(reduced);
  return m;
}

/// A transpose whose last result dim is not the operand's last dim.
bool movesLastDim(const Operation &op) {
  if (op.kind() != OpKind::Transpose)
    return false;
  const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
  return !perm.empty() && perm.back() != static_cast<int64_t>(perm.size()) - 1;
}

int64_t ceilDivInt(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUpInt(int64_t a, int64_t multiple) { return ceilDivInt(a, multiple) * multiple; }
int64_t powerOfTwoAtLeast(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}

/// The value of `size` (products and sums of symbols: it grows with each)
/// when every symbol is 1, its smallest.
int64_t smallestValue(const DimExpr &size) {
  DimBindings ones;
  for (const std::string &symbol : size.symbols())
    ones[symbol] = 1;
  absl::StatusOr<int64_t> value = size.evaluate(ones);
  return value.ok() ? *value : 0;
}

/// The mapping parameters shared by every variant of a kernel.
struct MappingContext {
  const Operation *dominant;
  const TargetDescription *target; // outlives the context
  MappingShape shape;
  int64_t lanes;
  int64_t vectorWidth;
  int64_t minElements;  // work a block should have at least
  int64_t packElements; // elements a block packs short rows into
  int64_t pairElements; // constant rows longer than packElements up to this: two a block
  int64_t wantedBlocks; // 2 x parallel units: enough to balance the load
  int64_t blockBufferBytes;
  int64_t warpWidth;
  int64_t elementsPerLane; // TargetDescription::elementsPerLane

  /// The lanes of a variant's blocks (TargetDescription::elementsPerLane):
  /// for the chunk of `colsPerBlock` columns, else the row (of a Generic
  /// mapping: the elements one result reduces, which its lanes split),
  /// whose length is a constant or bounded by a `rowWork <= N` predicate.
  int64_t lanesFor(const std::vector<DimPredicate> &predicates, int64_t colsPerBlock) const {
    if (elementsPerLane <= 0)
      return lanes;
    int64_t warp = std::max<int64_t>(warpWidth, 1);
    if (isColumnMajor(shape.kind) || shape.kind == MappingKind::ColumnPartial) {
      // A lane per column of the block's strip (or of all columns).
      std::optional<int64_t> columns =
          colsPerBlock > 0 ? std::optional<int64_t>(colsPerBlock) : shape.cols.constantValue();
      if (!columns)
        return lanes;
      if (columnRowGroups(colsPerBlock, *target) > 1)
        return lanes; // narrow strips: the rows split over groups of lanes
      return std::clamp(roundUpInt(std::max<int64_t>(*columns, 1), warp), std::min(warp, lanes),
                        lanes);
    }
    std::optional<int64_t> work =
        colsPerBlock > 0 ? std::optional<int64_t>(colsPerBlock) : shape.rowWork.constantValue();
    for (const DimPredicate &p : predicates)
      if (!work && p.lhs == shape.rowWork && p.op == DimPredicate::Op::LE)
        work = p.rhs.constantValue();
    if (!work)
      return lanes;
    return std::clamp(roundUpInt(ceilDivInt(std::max<int64_t>(*work, 1), elementsPerLane), warp),
                      std::min(warp, lanes), lanes);
  }

  /// Rows a block packs so that rows of `colsBound` elements give it about
  /// packElements; never more rows than a constant row count needs.
  /// `exactCols`: rows of exactly that many elements longer than packElements
  /// and at most pairElements are paired (TargetDescription::
  /// pairedRowElements). Shorter rows' stages fit a core's reorder window
  /// (rows of 128 f32 paired ran no faster), and rows of symbolic length
  /// keep one variant per packing rather than one more for the pairs.
  int64_t packRows(int64_t colsBound, bool exactCols = false) const {
    // GPUs pack only rows a warp covers, a warp each (ThreadMapping::rowLanes).
    if (elementsPerLane > 0 && colsBound > warpRowElements())
      return 1;
    int64_t rpb = powerOfTwoAtLeast(ceilDivInt(packElements, std::max<int64_t>(colsBound, 1)));
    if (exactCols && colsBound > packElements && colsBound <= pairElements)
      rpb = 2;
    if (std::optional<int64_t> rows = shape.rows.constantValue())
      rpb = std::min(rpb, powerOfTwoAtLeast(std::max<int64_t>(*rows, 1)));
    return rpb;
  }

  /// Scan: the elements after the scanned dim (a line per element of them
  /// in each row's leading part), and the lines in one of its rows when
  /// that is a constant.
  DimExpr scanInner() const {
    const std::vector<DimExpr> &result = dominant->type().shape();
    auto dim = static_cast<size_t>(dominant->intAttrOr("dim", 0));
    return productOf(result, dim + 1, result.size());
  }
  std::optional<int64_t> scanLinesPerRow() const { return scanInner().constantValue(); }
  /// GPUs: a cumsum along its last dim walks each line with a warp, a tile
  /// of adjacent elements at a time (coalesced), instead of a lane per line
  /// (each lane reading a line of its own: as many cache lines a step as
  /// lanes).
  bool scanWarpPerLine() const {
    return elementsPerLane > 0 && dominant->kind() == OpKind::CumSum && scanLinesPerRow() == 1;
  }

  /// GPUs: the longest row one warp covers with elementsPerLane each.
  int64_t warpRowElements() const { return std::max<int64_t>(warpWidth, 1) * elementsPerLane; }

  KernelVariant variant(std::vector<DimPredicate> predicates, int64_t rowsPerBlock,
                        int64_t colsPerBlock) const {
    ThreadMapping mapping;
    mapping.kind = shape.kind;
    mapping.batch = shape.batch;
    mapping.rows = shape.rows;
    mapping.cols = shape.cols;
    mapping.rowsPerBlock = rowsPerBlock;
    mapping.colsPerBlock = colsPerBlock;
    mapping.lanes = lanesFor(predicates, colsPerBlock);
    bool packsRows = shape.kind == MappingKind::Elementwise || shape.kind == MappingKind::RowReduce;
    int64_t warp = std::max<int64_t>(warpWidth, 1);
    if (elementsPerLane > 0 && packsRows && rowsPerBlock > 1 && colsPerBlock == 0) {
      // AStitch's horizontal packing: a warp per row, the block's warps
      // taking its rows in turn.
      mapping.rowLanes = warp;
      mapping.lanes = std::clamp(warp * rowsPerBlock, warp, lanes);
    } else if (elementsPerLane > 0 && shape.kind == MappingKind::Generic && rowsPerBlock > 1) {
      // Short reductions (a block packs several results): a lane per result.
      mapping.rowLanes = 1;
      mapping.lanes = std::clamp(roundUpInt(rowsPerBlock, warp), warp, lanes);
    } else if (scanWarpPerLine()) {
      mapping.rowLanes = warp;
      mapping.lanes = std::clamp(warp * rowsPerBlock, warp, lanes);
    } else if (elementsPerLane > 0 && shape.kind == MappingKind::Scan) {
      // A lane per line: the block's lines are its rows times the lines of
      // a row (the elements after the scanned dim), all the lanes when
      // that is not a constant.
      mapping.rowLanes = 1;
      std::optional<int64_t> lines =
          colsPerBlock > 0 ? std::optional<int64_t>(colsPerBlock) : scanLinesPerRow();
      mapping.lanes =
          lines ? std::clamp(roundUpInt(rowsPerBlock * *lines, warp), warp, lanes) : lanes;
    }
    mapping.vectorWidth = vectorWidth;

    KernelVariant v;
    v.predicates = std::move(predicates);
    if (isColumnMajor(shape.kind)) {
      v.grid = shape.batch * DimExpr::ceilDiv(shape.cols, colsPerBlock);
      // Each block keeps one accumulator per column it owns.
      v.buffers.push_back(
          PlanBuffer{dominant->result(), BufferLevel::Block, colsPerBlock, /*accumulators=*/true});
    } else {
      v.grid = DimExpr::ceilDiv(shape.rows, rowsPerBlock);
      // A scan's strips are of the elements after its scanned dim.
      if (colsPerBlock > 0)
        v.grid =
            v.grid * DimExpr::ceilDiv(shape.kind == MappingKind::Scan ? scanInner() : shape.cols,
                                      colsPerBlock);
    }
    v.groups.push_back(PlanGroup{dominant, {dominant}, std::move(mapping), v.grid});
    v.phases.push_back(PlanPhase{{PlanStage{{0}}}});
    return v;
  }
};

DimPredicate predicate(DimExpr lhs, DimPredicate::Op op, int64_t rhs) {
  return DimPredicate{std::move(lhs), op, DimExpr(rhs)};
}

/// A variant's condition `lhs op rhs`: decided now when lhs is a constant
/// (false: the variant never applies), else added to `predicates`.
bool require(const DimExpr &lhs, DimPredicate::Op op, int64_t rhs,
             std::vector<DimPredicate> &predicates) {
  DimPredicate p = predicate(lhs, op, rhs);
  if (lhs.constantValue())
    return p.evaluate({}).value_or(false);
  predicates.push_back(std::move(p));
  return true;
}

/// CPUs: the columns of a scan's lines one block walks when few rows split
/// them over blocks (a multiple of the emitter's chunk of columns).
constexpr int64_t kScanStripColumns = 256;

/// Elementwise, RowReduce, Generic and Scan: blocks own whole rows, packed so that
/// a block has about minElements of work (a Generic row is one output and
/// its reduction); element-wise kernels also split long rows when there are
/// too few rows to keep every parallel unit busy.
std::vector<KernelVariant> rowMajorVariants(const MappingContext &ctx) {
  const MappingShape &s = ctx.shape;
  if (s.kind == MappingKind::Elementwise && movesLastDim(*ctx.dominant)) {
    // The operand is read with a stride along the output's rows: tiles keep
    // the lines a tile reads in cache while its rows write whole lines.
    int64_t tile = 8 * ctx.vectorWidth;
    std::vector<KernelVariant> variants;
    if (!ctx.target->stagesTransposeTiles && ctx.elementsPerLane == 0 &&
        transposedBlockStart(*ctx.dominant)) {
      // CPU register transposes (TransposeTiles.h), rows of 32V columns at
      // least: tiles of 4V output rows by 32V
      // columns (64 x 512 for f32 on AVX-512: 128 KiB of input, in L2),
      // whose register transposes walk an output row block at a time (each
      // of its V rows written on 32V elements in a run), consecutive blocks
      // taking the next output rows of the same columns: 1.4 to 1.9 times the
      // speed of square tiles at [16384, 1024]. Shorter rows (K^T of a
      // short sequence) keep square tiles (docs/performance.md).
      std::vector<DimPredicate> when;
      if (require(s.cols, DimPredicate::Op::GE, 32 * ctx.vectorWidth, when)) {
        KernelVariant tall = ctx.variant(when, 4 * ctx.vectorWidth, 32 * ctx.vectorWidth);
        tall.groups[0].mapping.rowBlocksFirst = true;
        variants.push_back(std::move(tall));
        if (when.empty())
          return variants;
      }
    }
    KernelVariant v = ctx.variant({}, tile, tile);
    // A row more than the tile has, so that reading a column of the staged
    // tile touches every bank of GPU shared memory once.
    if (ctx.target->stagesTransposeTiles && transposedBlockStart(*ctx.dominant))
      v.buffers.push_back(PlanBuffer{ctx.dominant->result(), BufferLevel::Block,
                                     DimExpr(tile * (tile + 1)), false, false, nullptr,
                                     /*staging=*/true});
    variants.push_back(std::move(v));
    return variants;
  }
  std::vector<KernelVariant> variants;
  if (s.kind == MappingKind::Scan) {
    // Few rows of many lines (a scan down the first dim): strips of the
    // lines' columns over blocks, so that every parallel unit walks some.
    bool gpu = ctx.elementsPerLane > 0;
    DimExpr inner = ctx.scanInner();
    std::optional<int64_t> innerCount = inner.constantValue();
    std::optional<int64_t> rows = s.rows.constantValue();
    int64_t strip = gpu ? ctx.lanes : kScanStripColumns;
    if (innerCount && rows && *rows > 0) {
      int64_t perRow = ceilDivInt(ctx.wantedBlocks, *rows);
      strip = std::max(strip, roundUpInt(ceilDivInt(*innerCount, perRow), strip));
    }
    std::vector<DimPredicate> when;
    if (require(s.rows, DimPredicate::Op::LT, ctx.wantedBlocks, when) &&
        require(inner, DimPredicate::Op::GT, strip, when)) {
      variants.push_back(ctx.variant(when, 1, strip));
      if (when.empty())
        return variants;
    }
  }
  if (s.kind == MappingKind::Scan && ctx.elementsPerLane > 0) {
    // GPUs: enough rows that every lane (or warp) of a block has a line
    // to walk.
    int64_t rpb = 1;
    if (ctx.scanWarpPerLine())
      rpb = std::max<int64_t>(ctx.lanes / std::max<int64_t>(ctx.warpWidth, 1), 1);
    else if (std::optional<int64_t> perRow = ctx.scanLinesPerRow(); perRow && *perRow > 0)
      rpb = powerOfTwoAtLeast(ceilDivInt(ctx.lanes, *perRow));
    if (std::optional<int64_t> rows = s.rows.constantValue())
      rpb = std::min(rpb, powerOfTwoAtLeast(std::max<int64_t>(*rows, 1)));
    variants.push_back(ctx.variant({}, rpb, 0));
    return variants;
  }
  bool canSplit = s.kind == MappingKind::Elementwise;
  int64_t chunk = roundUpInt(ctx.minElements, ctx.vectorWidth);
  std::optional<int64_t> rows = s.rows.constantValue();

  if (std::optional<int64_t> work = s.rowWork.constantValue()) {
    int64_t rpb = ctx.packRows(*work, /*exactCols=*/true);
    if (canSplit && rpb == 1) {
      // Element-wise rows are their columns: rowWork == cols.
      // Blocks per row needed for wantedBlocks even when there is one row.
      int64_t perRow = ceilDivInt(ctx.wantedBlocks, std::max<int64_t>(rows.value_or(1), 1));
      int64_t split = std::max(chunk, roundUpInt(ceilDivInt(*work, perRow), ctx.vectorWidth));
      if (split < *work) {
        if (!rows) {
          variants.push_back(
              ctx.variant({predicate(s.rows, DimPredicate::Op::LT, ctx.wantedBlocks)}, 1, split));
        } else if (*rows < ctx.wantedBlocks) {
          variants.push_back(ctx.variant({}, 1, split));
          return variants;
        }
      }
    }
    variants.push_back(ctx.variant({}, rpb, 0));
    return variants;
  }

  // Symbolic row work: one variant per range of row lengths, each range 16 times
  // longer than the previous, from one vector per lane up to a full block.
  std::vector<std::pair<int64_t, int64_t>> packed; // (max cols, rows per block)
  // GPUs: rows a warp covers, a warp each.
  if (ctx.elementsPerLane > 0)
    if (int64_t rpb = ctx.packRows(ctx.warpRowElements()); rpb > 1)
      packed.emplace_back(ctx.warpRowElements(), rpb);
  for (int64_t bound = ctx.lanes * ctx.vectorWidth; bound < ctx.packElements; bound *= 16) {
    int64_t rpb = ctx.packRows(bound);
    if (rpb == 1)
      break;
    // A longer range with the same packing subsumes a shorter one.
    if (!packed.empty() && packed.back().second == rpb)
      packed.back().first = bound;
    else
      packed.emplace_back(bound, rpb);
  }
  for (auto [bound, rpb] : packed)
    variants.push_back(ctx.variant({predicate(s.rowWork, DimPredicate::Op::LE, bound)}, rpb, 0));
  if (canSplit && (!rows || *rows < ctx.wantedBlocks)) {
    std::vector<DimPredicate> when;
    if (!rows)
      when.push_back(predicate(s.rows, DimPredicate::Op::LT, ctx.wantedBlocks));
    when.push_back(predicate(s.cols, DimPredicate::Op::GT, chunk));
    variants.push_back(ctx.variant(std::move(when), 1, chunk));
  }
  variants.push_back(ctx.variant({}, 1, 0));
  return variants;
}

/// ColumnReduce and BatchColumnReduce: a block owns a strip of columns and
/// walks every reduced row; narrower strips when there are few columns, so
/// that there are enough blocks, always whole vectors.
std::vector<KernelVariant> columnVariants(const MappingContext &ctx) {
  const MappingShape &s = ctx.shape;
  int64_t strip = ctx.lanes * ctx.vectorWidth * 4;
  if (std::optional<int64_t> cols = s.cols.constantValue()) {
    int64_t batch = s.batch.constantValue().value_or(ctx.wantedBlocks);
    int64_t perBatch = ceilDivInt(ctx.wantedBlocks, std::max<int64_t>(batch, 1));
    int64_t wanted = roundUpInt(ceilDivInt(std::max<int64_t>(*cols, 1), perBatch), ctx.vectorWidth);
    strip = std::min(strip, std::max(ctx.vectorWidth, wanted));
  }
  // Accumulators are at most 8 bytes; the strip's must fit the block buffer.
  int64_t fits =
      std::max(ctx.vectorWidth, ctx.blockBufferBytes / 8 / ctx.vectorWidth * ctx.vectorWidth);
  strip = std::min(strip, fits);
  return {ctx.variant({}, 1, strip)};
}

} // namespace

MappingShape classifyMapping(const Operation &op) {
  switch (op.kind()) {
  case OpKind::ArgMax:
  case OpKind::ArgMin: {
    const std::vector<DimExpr> &in = op.operand(0)->type().shape();
    auto dim = static_cast<size_t>(op.intAttrOr("dim", 0));
    if (dim + 1 != in.size())
      return genericOver(op, in[dim]);
    MappingShape m;
    m.kind = MappingKind::RowReduce;
    m.rows = productOf(in, 0, dim);
    m.cols = in[dim];
    m.rowWork = m.cols;
    return m;
  }
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd: {
    const std::vector<DimExpr> &in = op.operand(0)->type().shape();
    std::vector<int64_t> dims = op.attr("dims")->getIntList();
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    if (dims.empty())
      return elementwiseOver(op.type().shape());
    auto first = static_cast<size_t>(dims.front());
    auto last = static_cast<size_t>(dims.back());
    if (last - first + 1 != dims.size()) {
      std::vector<DimExpr> reduced;
      for (int64_t d : dims)
        reduced.push_back(in[static_cast<size_t>(d)]);
      return genericOver(op, dimProduct(reduced));
    }
    MappingShape m;
    if (last + 1 == in.size()) {
      m.kind = MappingKind::RowReduce;
      m.rows = productOf(in, 0, first);
      m.cols = productOf(in, first, in.size());
      m.rowWork = m.cols;
    } else {
      m.kind = first == 0 ? MappingKind::ColumnReduce : MappingKind::BatchColumnReduce;
      m.batch = productOf(in, 0, first);
      m.rows = productOf(in, first, last + 1);
      m.cols = productOf(in, last + 1, in.size());
    }
    return m;
  }
  case OpKind::CumSum:
  case OpKind::TopK: {
    // Whole lines per block: the rows are the dims before the scanned one
    // (a top_k's rows hold k results per line, and walk the operand's).
    const std::vector<DimExpr> &shape = op.type().shape();
    auto dim = static_cast<size_t>(op.intAttrOr("dim", 0));
    MappingShape m;
    m.kind = MappingKind::Scan;
    m.rows = productOf(shape, 0, dim);
    m.cols = productOf(shape, dim, shape.size());
    m.rowWork = productOf(op.operand(0)->type().shape(), dim, shape.size());
    return m;
  }
  default:
    return elementwiseOver(op.type().shape());
  }
}

DimExpr tensorBytes(const TensorType &type) {
  return type.numElements() * DimExpr(elementByteSize(type.elementType()));
}

namespace {

MappingContext mappingContext(const Operation &dominant, const TargetDescription &target,
                              int64_t packElements = 0) {
  MappingContext ctx;
  ctx.dominant = &dominant;
  ctx.target = &target;
  ctx.shape = classifyMapping(dominant);
  ElementType streamed = streamedElementType(dominant);
  ctx.lanes = std::max<int64_t>(target.lanesPerBlock, 1);
  ctx.vectorWidth = std::max<int64_t>(target.vectorBytes / elementByteSize(streamed), 1);
  ctx.minElements = std::max<int64_t>(target.minElementsPerBlock, 1);
  ctx.packElements = std::clamp<int64_t>(packElements > 0 ? packElements : target.packedRowElements,
                                         1, ctx.minElements);
  ctx.pairElements = packElements > 0 ? 0 : target.pairedRowElements;
  ctx.wantedBlocks = 2 * std::max<int64_t>(target.parallelUnits, 1);
  ctx.blockBufferBytes = target.blockBufferBytes;
  ctx.warpWidth = target.warpWidth;
  ctx.elementsPerLane = target.elementsPerLane;
  return ctx;
}

/// The mapping context of a reduction whose partial states combine (not
/// argmax/argmin) and whose mapping is `kind`; nullopt for any other op.
std::optional<MappingContext> splittable(const Operation &dominant, const TargetDescription &target,
                                         MappingKind kind) {
  if (dominant.info().category != OpCategory::Reduce || dominant.info().rule == TypeRule::ArgReduce)
    return std::nullopt;
  MappingContext ctx = mappingContext(dominant, target);
  if (ctx.shape.kind != kind)
    return std::nullopt;
  return ctx;
}

/// Rows each block of a split column reduction reduces: its partials (8
/// bytes per column) are then at most 1/64 of the f32 rows it reads.
constexpr int64_t kSplitRowsPerBlock = 128;

} // namespace

std::optional<KernelVariant> splitColumnVariant(const Operation &dominant,
                                                const TargetDescription &target) {
  std::optional<MappingContext> split = splittable(dominant, target, MappingKind::ColumnReduce);
  if (!split)
    return std::nullopt;
  MappingContext &ctx = *split;
  // CPU: enough row blocks for every parallel unit. GPU: columns too few
  // for a quarter of the blocks wanted at a warp of columns each (bias_grad's
  // 1024 columns: at most 32 blocks of whole warps, or 256 blocks of 4 busy
  // lanes each walking every row), and rows for 8 row blocks or more.
  bool gpu = ctx.elementsPerLane > 0;
  int64_t enough = gpu ? kSplitRowsPerBlock * 8 : kSplitRowsPerBlock * ctx.wantedBlocks;
  std::vector<DimPredicate> predicates;
  if (!require(ctx.shape.rows, DimPredicate::Op::GE, enough, predicates))
    return std::nullopt;
  if (gpu && !require(ctx.shape.cols, DimPredicate::Op::LT,
                      std::max<int64_t>(ctx.warpWidth, 1) * ctx.wantedBlocks / 4, predicates))
    return std::nullopt;
  ctx.shape.kind = MappingKind::ColumnPartial;
  KernelVariant v = ctx.variant(std::move(predicates), kSplitRowsPerBlock, 0);
  return v;
}

std::optional<KernelVariant> splitRowVariant(const Operation &dominant,
                                             const TargetDescription &target) {
  std::optional<MappingContext> split = splittable(dominant, target, MappingKind::RowReduce);
  if (!split)
    return std::nullopt;
  MappingContext &ctx = *split;
  // CPU: fewer rows than blocks wanted, and enough chunks for every block
  // (a split costs a round over the grid per phase). GPU: fewer rows than
  // half the resident blocks leave most SMs idle for the whole kernel, which
  // a few launches more cost far less than; a row of two chunks or more
  // doubles the blocks at least (softmax over 64 rows of 30000: 960 blocks
  // instead of 64).
  int64_t chunk = roundUpInt(ctx.minElements, ctx.vectorWidth);
  bool gpu = ctx.elementsPerLane > 0;
  int64_t fewRows = gpu ? std::max<int64_t>(ctx.wantedBlocks / 4, 1) : ctx.wantedBlocks;
  int64_t longEnough = gpu ? 2 * chunk : chunk * ctx.wantedBlocks;
  std::vector<DimPredicate> predicates;
  if (smallestValue(ctx.shape.rows) >= fewRows) // 12*B*S rows are never few
    return std::nullopt;
  if (!require(ctx.shape.rows, DimPredicate::Op::LT, fewRows, predicates) ||
      !require(ctx.shape.cols, DimPredicate::Op::GE, longEnough, predicates))
    return std::nullopt;
  ctx.shape.kind = MappingKind::RowPartial;
  return ctx.variant(std::move(predicates), 1, chunk);
}

std::vector<KernelVariant> planVariants(const Operation &dominant, const TargetDescription &target,
                                        int64_t packElements) {
  MappingContext ctx = mappingContext(dominant, target, packElements);
  if (isColumnMajor(ctx.shape.kind))
    return columnVariants(ctx);
  return rowMajorVariants(ctx);
}

} // namespace xs::plan
