// The Scan mapping (layout in GroupEmitter.h). GPUs: a line along the last
// dim walked by a warp, a tile of adjacent elements (a lane's each) at a
// time: the tile's running sums by butterflies (Target::emitWarpScan), the
// sum before the tile carried in every lane. Lines down another dim: each
// walked in the scan's order by one lane, the running state in a register;
// adjacent lanes take adjacent lines, so they read and write coalesced. CPUs: lines along the last
// dim one after another, each in chunks whose running sums are taken in vector registers
// (walkChunked); lines down another dim in chunks of adjacent columns, advancing the whole chunk
// one step along the scanned dim at a time (a vector of states, contiguous loads and stores; the
// chunk some steps ahead prefetched). Either way each element is read and written once.

#include <algorithm>
#include <array>
#include <functional>
#include <utility>
#include <vector>

#include "backends/common/GroupEmitter.h"
#include "backends/common/LineWalk.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/Reduction.h"
#include "backends/common/TypeLowering.h"

namespace xs {

namespace {

/// CPUs: the adjacent columns whose states advance together (f64 states:
/// 2 KiB, in L1): each step along the scanned dim reads and writes 1 KiB of
/// f32 contiguously (64 columns at a time read a new page every step of a
/// scan down [16384, 1024], half the speed).
constexpr int64_t kScanChunkColumns = 256;
/// CPUs: the elements of a line summed in vector registers at a time (a
/// multiple of every vector's lanes).
constexpr int64_t kScanChunk = 64;
/// CPUs, lines down another dim: how far ahead of the walk a tensor it
/// reads is prefetched, in bytes of its chunks (16 steps of f32 chunks).
/// Each step reads a chunk from another page, and the hardware prefetchers
/// stay within a page: without the prefetch a scan down f32[16384, 1024]
/// ran at about half the copy floor (docs/performance.md).
constexpr int64_t kScanPrefetchBytes = 16 << 10;

/// What one scan op accumulates: f32 and f64 sums in f64 (as the
/// interpreter and PyTorch's CPU cumsum do, so that long lines do not drift
/// from them; f32 states would run f32[R, 1024] rows at about twice the
/// speed), f16 and bf16 sums in f32 (far finer than their results), integer
/// sums at their own width, wrapping.
struct ScanSum {
  ElementType element;
  llvm::Type *state;

  ScanSum(llvm::LLVMContext &context, ElementType type)
      : element(type),
        state(computeType(context, type == ElementType::F16 || type == ElementType::BF16
                                       ? ElementType::F32
                                   : isFloat(type) ? ElementType::F64
                                                   : type)) {}

  llvm::Value *zero() const { return llvm::Constant::getNullValue(state); }

  /// An element (in its compute type) as a state.
  llvm::Value *widen(llvm::IRBuilder<> &b, llvm::Value *x) const {
    return isFloat(element) && x->getType() != state ? b.CreateFPExt(x, state) : x;
  }

  /// sum + x, both states (scalars or vectors of them).
  llvm::Value *add(llvm::IRBuilder<> &b, llvm::Value *sum, llvm::Value *x) const {
    return isFloat(element) ? b.CreateFAdd(sum, x) : b.CreateAdd(sum, x);
  }

  /// The state as an element of the result, in its compute type.
  llvm::Value *result(llvm::IRBuilder<> &b, llvm::Value *sum) const {
    llvm::Type *type = computeType(b.getContext(), element);
    return type == state ? sum : b.CreateFPTrunc(sum, type);
  }
};

/// Where step j of a line's walk is: its multi-index and row-major position.
using StepAt = std::function<std::pair<std::vector<llvm::Value *>, llvm::Value *>(llvm::Value *j)>;

/// The scan of one group, as the block walks it.
class ScanBlock {
public:
  ScanBlock(GroupEmission &group, const Operation &op)
      : group_(group), gen_(group.gen), ctx_(gen_.context()), b_(ctx_.b), op_(op),
        shape_(op.type().shape()), dim_(static_cast<size_t>(op.intAttrOr("dim", 0))),
        exclusive_(op.intAttrOr("exclusive", 0) != 0), reverse_(op.intAttrOr("reverse", 0) != 0),
        sum_(b_.getContext(), op.type().elementType()) {
    length_ = gen_.dim(shape_[dim_]);
  }

  void emit(llvm::Value *blockId) {
    BlockLines lines(group_, shape_, dim_, blockId);
    inner_ = lines.inner;
    std::optional<int64_t> inner = dimProduct(lines.innerShape).constantValue();
    if (isSingleLane(ctx_.target.laneCount(b_)) && !(inner && *inner == 1))
      walkChunks(lines);
    else
      walkLines(lines);
  }

private:
  /// Step k of the walk is element j of the line.
  llvm::Value *stepIndex(llvm::Value *k) {
    return reverse_ ? b_.CreateSub(b_.CreateSub(length_, b_.getInt64(1)), k) : k;
  }

  /// Adds the element at `index` (position `position`) to `state` and
  /// stores what the scan gives there; returns the new state.
  llvm::Value *step(const std::vector<llvm::Value *> &index, llvm::Value *position,
                    llvm::Value *state) {
    gen_.setElementPosition(shape_, index, position);
    llvm::Value *next = sum_.add(b_, state, sum_.widen(b_, gen_.emit(op_.operand(0), index)));
    storeReduced(group_, sum_.result(b_, exclusive_ ? state : next), index, position);
    gen_.clearElementPosition();
    return next;
  }

  /// The block's lines (BlockLines::forEachLine). GPUs: each walked by a
  /// lane with its state in a register. CPUs: each in chunks
  /// (walkChunked).
  void walkLines(const BlockLines &lines) {
    bool oneLane = isSingleLane(ctx_.target.laneCount(b_));
    llvm::Value *buffer = oneLane ? chunkBuffer() : nullptr;
    RowLanes lanes = rowLanesOf(ctx_, group_.group.mapping);
    lines.forEachLine([&](const Line &line) {
      auto at = [&](llvm::Value *j) {
        return std::pair{line.indexAt(j), line.positionAt(b_, j, length_, inner_)};
      };
      if (oneLane) {
        walkChunked(buffer, at);
        return;
      }
      if (lanes.packed && lanes.rowLanes > 1) {
        walkByWarp(lanes, at);
        return;
      }
      LoopResult walk = emitLoop(
          b_, b_.getInt64(0), length_, {sum_.zero()},
          [&](llvm::Value *k, llvm::ArrayRef<llvm::Value *> state) {
            auto [index, position] = at(stepIndex(k));
            return std::vector<llvm::Value *>{step(index, position, state[0])};
          },
          "scan");
      // The state is a chain through the walk: nothing to vectorize.
      ctx_.target.annotateRowLoop(walk.latch);
    });
  }

  /// GPUs, one line (`at`: step j's index and position) walked by the
  /// lanes of a warp, tile by tile of warp-many steps: lane l takes step
  /// t + l of the tile at t; the tile's running sums come from the warp
  /// scan and the sum before the tile, which every lane carries. Lanes past
  /// the line's end add zero and store nothing, but take part in the
  /// exchanges.
  void walkByWarp(const RowLanes &lanes, const StepAt &at) {
    LoopResult tiles = emitStridedLoop(
        b_, b_.getInt64(0), length_, lanes.width, {sum_.zero()},
        [&](llvm::Value *tile, llvm::ArrayRef<llvm::Value *> before) {
          llvm::Value *k = b_.CreateAdd(tile, lanes.lane, "scan.step");
          llvm::Value *inLine = b_.CreateICmpSLT(k, length_);
          llvm::Value *x = emitIfElse(
              b_, inLine,
              [&] {
                auto [index, position] = at(stepIndex(k));
                gen_.setElementPosition(shape_, index, position);
                llvm::Value *element = sum_.widen(b_, gen_.emit(op_.operand(0), index));
                gen_.clearElementPosition();
                return element;
              },
              [&] { return sum_.zero(); });
          WarpScan scan =
              ctx_.target.emitWarpScan(b_, x, sum_.zero(), exclusive_,
                                       [&](llvm::IRBuilder<> &b, llvm::Value *lhs,
                                           llvm::Value *rhs) { return sum_.add(b, lhs, rhs); });
          emitIfElseValues(
              b_, inLine,
              [&] {
                auto [index, position] = at(stepIndex(k));
                gen_.setElementPosition(shape_, index, position);
                storeReduced(group_, sum_.result(b_, sum_.add(b_, before[0], scan.prefix)), index,
                             position);
                gen_.clearElementPosition();
                return std::vector<llvm::Value *>{};
              },
              [] { return std::vector<llvm::Value *>{}; });
          return std::vector<llvm::Value *>{sum_.add(b_, before[0], scan.total)};
        },
        "scan.tiles");
    ctx_.target.annotateRowLoop(tiles.latch);
  }

  /// The lanes of the state type in one vector register of the target.
  int64_t stateLanes() const {
    int64_t bytes = static_cast<int64_t>(sum_.state->getPrimitiveSizeInBits() / 8);
    return std::clamp<int64_t>(ctx_.target.description().vectorBytes / std::max<int64_t>(bytes, 1),
                               1, kScanChunk);
  }

  /// The chunk buffer's elements: the elements' compute type (f32 for f32,
  /// whose sums are f64 only in registers: half the buffer traffic).
  llvm::Type *itemType() const { return computeType(b_.getContext(), sum_.element); }
  /// A stack array of a chunk's elements, then their running sums (in
  /// place), 64-byte aligned so that no vector of them straddles two cache
  /// lines.
  llvm::Value *chunkBuffer() { return kernelStackArray(b_, itemType(), kScanChunk, "scan.chunk"); }
  llvm::Value *slot(llvm::Value *buffer, llvm::Value *i) {
    return b_.CreateInBoundsGEP(itemType(), buffer, {i});
  }

  /// Marks the two loops of emitChunkLoop for vectorization.
  void annotateChunk(const std::array<llvm::BranchInst *, 2> &latches) {
    ctx_.target.annotateInnerLoop(latches[0], kScanChunk, narrowVectorWidth(group_.group));
    ctx_.target.annotateInnerLoop(latches[1], 0, narrowVectorWidth(group_.group));
  }

  /// CPUs, one line (`at`: step j's index and position) in chunks of
  /// kScanChunk elements: the chunk's elements into the buffer (a loop the
  /// vectorizer takes), their running sums in vector registers, widened
  /// to the state there and rounded back into the buffer (each
  /// vector's prefix sums by log2(lanes) shifted adds, then the sum before
  /// it added; one dependent addition per vector instead of per element),
  /// then the results out of the buffer (vectorized again).
  void walkChunked(llvm::Value *buffer, const StepAt &at) {
    llvm::Value *chunk = b_.getInt64(kScanChunk);
    int64_t lanes = stateLanes();
    auto n = static_cast<unsigned>(lanes);
    llvm::Type *item = itemType();
    auto *vectorType = llvm::FixedVectorType::get(sum_.state, n);
    auto *itemVectorType = llvm::FixedVectorType::get(item, n);
    // The chunks carry the sum before each (a state).
    LoopResult chunks = emitStridedLoop(
        b_, b_.getInt64(0), length_, chunk, {sum_.zero()},
        [&](llvm::Value *first, llvm::ArrayRef<llvm::Value *> before) {
          llvm::Value *width = emitMin(b_, chunk, b_.CreateSub(length_, first));
          // Elements, then zeros past the line's end (a whole chunk in a
          // loop of constant trips: emitChunkLoop).
          annotateChunk(emitChunkLoop(
              b_, width, kScanChunk,
              [&](llvm::Value *c) {
                auto [index, position] = at(stepIndex(b_.CreateAdd(first, c)));
                gen_.setElementPosition(shape_, index, position);
                llvm::Value *x = gen_.emit(op_.operand(0), index);
                gen_.clearElementPosition();
                b_.CreateStore(x, slot(buffer, c));
              },
              "scan.load"));
          LoopResult pad = emitLoop(
              b_, width, chunk, {},
              [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
                b_.CreateStore(llvm::Constant::getNullValue(item), slot(buffer, c));
                return std::vector<llvm::Value *>{};
              },
              "scan.pad");
          ctx_.target.annotateRowLoop(pad.latch);
          // Running sums, a vector at a time, from the sum before the chunk:
          // each vector's prefix sums, then the sum before it added. Only
          // the sums before each vector form a chain (one addition per
          // vector); the prefix sums are independent of it.
          llvm::Value *previous = before[0];
          llvm::Value *carry = b_.CreateVectorSplat(n, previous);
          llvm::Value *zeros = llvm::Constant::getNullValue(vectorType);
          std::vector<int> last(static_cast<size_t>(lanes), static_cast<int>(lanes - 1));
          llvm::Align vectorAlign(static_cast<uint64_t>(
              std::min<int64_t>(64, lanes * (item->getPrimitiveSizeInBits() / 8))));
          for (int64_t v = 0; v < kScanChunk / lanes; ++v) {
            llvm::Value *address = slot(buffer, b_.getInt64(v * lanes));
            llvm::Value *x = b_.CreateAlignedLoad(itemVectorType, address, vectorAlign);
            if (item != sum_.state)
              x = b_.CreateFPExt(x, vectorType);
            for (int64_t shift = 1; shift < lanes; shift *= 2) {
              // Lane i adds lane i - shift (zero for the first `shift`).
              std::vector<int> mask;
              for (int64_t i = 0; i < lanes; ++i)
                mask.push_back(static_cast<int>(i < shift ? lanes + i : i - shift));
              x = sum_.add(b_, x, b_.CreateShuffleVector(x, zeros, mask));
            }
            llvm::Value *total = b_.CreateShuffleVector(x, last);
            llvm::Value *sums = sum_.add(b_, x, carry);
            if (item != sum_.state)
              sums = b_.CreateFPTrunc(sums, itemVectorType);
            b_.CreateAlignedStore(sums, address, vectorAlign);
            carry = sum_.add(b_, carry, total);
          }
          // Results: slot c holds the sum through element c (rounded to
          // the result's type), slot c - 1 the sum before it (for the first,
          // the sum before the chunk: `previous`).
          annotateChunk(emitChunkLoop(
              b_, width, kScanChunk,
              [&](llvm::Value *c) {
                auto [index, position] = at(stepIndex(b_.CreateAdd(first, c)));
                llvm::Value *value =
                    exclusive_
                        ? b_.CreateSelect(
                              b_.CreateICmpEQ(c, b_.getInt64(0)), sum_.result(b_, previous),
                              b_.CreateLoad(item, slot(buffer, b_.CreateSub(c, b_.getInt64(1)))))
                        : b_.CreateLoad(item, slot(buffer, c));
                gen_.setElementPosition(shape_, index, position);
                storeReduced(group_, value, index, position);
                gen_.clearElementPosition();
              },
              "scan.store"));
          // The next chunk starts from this one's total.
          return std::vector<llvm::Value *>{
              b_.CreateExtractElement(carry, static_cast<uint64_t>(0))};
        },
        "scan.chunks");
    ctx_.target.annotateRowLoop(chunks.latch);
  }

  /// Prefetches the chunk `width` columns from `chunk` of the line at
  /// `lineStart`, some steps after step `k`, of each tensor in `reads`
  /// (ElementGenerator::sameIndexReads); near the line's end its last step.
  void prefetchAhead(const std::vector<const Value *> &reads, llvm::Value *k,
                     llvm::Value *lineStart, llvm::Value *chunk, llvm::Value *width) {
    llvm::Value *lastStep = b_.CreateSub(length_, b_.getInt64(1));
    for (const Value *read : reads) {
      int64_t bytes = elementByteSize(read->type().elementType());
      int64_t steps = std::max<int64_t>(2, kScanPrefetchBytes / (kScanChunkColumns * bytes));
      llvm::Value *ahead = stepIndex(emitMin(b_, b_.CreateAdd(k, b_.getInt64(steps)), lastStep));
      llvm::Value *first =
          b_.CreateAdd(b_.CreateAdd(lineStart, b_.CreateMul(ahead, inner_)), chunk);
      llvm::Value *start = b_.CreateGEP(b_.getInt8Ty(), gen_.wholeTensorBase(read),
                                        b_.CreateMul(first, b_.getInt64(bytes)));
      // Every cache line the chunk touches, wherever it starts in one (a
      // prefetch past the tensor's end is harmless: it never faults).
      llvm::Value *end =
          b_.CreateAdd(b_.CreateMul(width, b_.getInt64(bytes)), b_.getInt64(kCacheLineBytes));
      LoopResult cacheLines = emitStridedLoop(
          b_, b_.getInt64(0), end, b_.getInt64(kCacheLineBytes), {},
          [&](llvm::Value *offset, llvm::ArrayRef<llvm::Value *>) {
            emitPrefetch(b_, b_.CreateGEP(b_.getInt8Ty(), start, offset));
            return std::vector<llvm::Value *>{};
          },
          "scan.prefetch");
      ctx_.target.annotateRowLoop(cacheLines.latch);
    }
  }

  /// CPUs, lines down a dim other than the last: for each outer index,
  /// chunks of kScanChunkColumns adjacent columns of the block's, each
  /// chunk's states in a stack array advanced together one step along the
  /// scanned dim at a time, prefetching the tensors it reads ahead.
  void walkChunks(const BlockLines &lines) {
    std::vector<const Value *> reads = gen_.sameIndexReads(op_.operand(0));
    llvm::Value *columnEnd = lines.columnEnd;
    llvm::Value *states = kernelStackArray(b_, sum_.state, kScanChunkColumns, "scan.states");
    auto stateAt = [&](llvm::Value *c) { return b_.CreateInBoundsGEP(sum_.state, states, {c}); };
    LoopResult outerLoop = emitLoop(
        b_, lines.outerBegin, lines.outerEnd, {},
        [&](llvm::Value *outer, llvm::ArrayRef<llvm::Value *>) {
          Line line;
          line.outer = outer;
          line.outerIndex = gen_.unravel(outer, lines.outerShape);
          llvm::Value *lineStart = b_.CreateMul(b_.CreateMul(outer, length_), inner_);
          LoopResult chunkLoop = emitStridedLoop(
              b_, lines.columnBegin, columnEnd, b_.getInt64(kScanChunkColumns), {},
              [&](llvm::Value *chunk, llvm::ArrayRef<llvm::Value *>) {
                llvm::Value *width =
                    emitMin(b_, b_.getInt64(kScanChunkColumns), b_.CreateSub(columnEnd, chunk));
                LoopResult clear = emitLoop(
                    b_, b_.getInt64(0), width, {},
                    [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
                      b_.CreateStore(sum_.zero(), stateAt(c));
                      return std::vector<llvm::Value *>{};
                    },
                    "scan.clear");
                ctx_.target.annotateInnerLoop(clear.latch, 0);
                LoopResult walk = emitLoop(
                    b_, b_.getInt64(0), length_, {},
                    [&](llvm::Value *k, llvm::ArrayRef<llvm::Value *>) {
                      llvm::Value *j = stepIndex(k);
                      llvm::Value *rowStart = b_.CreateAdd(lineStart, b_.CreateMul(j, inner_));
                      prefetchAhead(reads, k, lineStart, chunk, width);
                      LoopResult columns = emitLoop(
                          b_, b_.getInt64(0), width, {},
                          [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
                            llvm::Value *column = b_.CreateAdd(chunk, c);
                            llvm::Value *slot = stateAt(c);
                            line.columnIndex = gen_.unravel(column, lines.innerShape);
                            llvm::Value *next =
                                step(line.indexAt(j), b_.CreateAdd(rowStart, column),
                                     b_.CreateLoad(sum_.state, slot));
                            b_.CreateStore(next, slot);
                            return std::vector<llvm::Value *>{};
                          },
                          "scan.columns");
                      ctx_.target.annotateInnerLoop(columns.latch, 0,
                                                    narrowVectorWidth(group_.group));
                      return std::vector<llvm::Value *>{};
                    },
                    "scan");
                ctx_.target.annotateRowLoop(walk.latch);
                return std::vector<llvm::Value *>{};
              },
              "scan.chunk");
          ctx_.target.annotateRowLoop(chunkLoop.latch);
          return std::vector<llvm::Value *>{};
        },
        "outer");
    ctx_.target.annotateRowLoop(outerLoop.latch);
  }

  GroupEmission &group_;
  ElementGenerator &gen_;
  KernelContext &ctx_;
  llvm::IRBuilder<> &b_;
  const Operation &op_;
  const std::vector<DimExpr> &shape_;
  size_t dim_;
  bool exclusive_;
  bool reverse_;
  ScanSum sum_;
  llvm::Value *length_ = nullptr;
  llvm::Value *inner_ = nullptr;
};

} // namespace

void emitScanBlock(GroupEmission &group, llvm::Value *blockId) {
  const Operation &op = *group.group.dominant;
  if (op.kind() == OpKind::TopK)
    return emitTopKBlock(group, blockId);
  if (op.kind() != OpKind::CumSum)
    return group.gen.context().fail("a scan mapping needs a cumsum or a top_k (" +
                                    op.result()->name() + ")");
  ScanBlock(group, op).emit(blockId);
}

} // namespace xs
