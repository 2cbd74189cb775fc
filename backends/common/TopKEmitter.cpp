// top_k on the Scan mapping (layout in GroupEmitter.h): each line of the
// block's rows is walked once in index order, keeping its k best elements
// so far sorted best first; a better element is inserted in order and the
// worst drops out. GPUs: a lane per line, as scans, the kept values and
// indices in two stack arrays (local memory). CPUs: the lines in turn, each
// in chunks whose elements are loaded by a loop the vectorizer takes and
// compared with the k-th best in one vector compare; only the elements that
// beat it (rare once the line's start has filled the arrays) are inserted,
// for k up to 64 into vector registers by selects, without branches (larger
// k: the stack arrays). The indices are written at the end of the line.

#include <algorithm>
#include <array>
#include <functional>
#include <vector>

#include "backends/common/GroupEmitter.h"
#include "backends/common/LineWalk.h"
#include "backends/common/LoopBuilder.h"
#include "backends/common/Reduction.h"
#include "backends/common/ScalarOps.h"
#include "backends/common/TypeLowering.h"

namespace xs {

namespace {

/// CPUs: the elements of a line loaded and compared at a time.
constexpr int64_t kTopKChunk = 64;
/// CPUs: the largest k whose kept elements live in vector registers (64
/// lanes of f32 values and i32 indices: 16 AVX2 registers' worth, 8 of
/// AVX-512); larger k keeps them in stack arrays.
constexpr int64_t kTopKInRegisters = 64;

class TopKBlock {
public:
  TopKBlock(GroupEmission &group, const Operation &op)
      : group_(group), gen_(group.gen), ctx_(gen_.context()), b_(ctx_.b), op_(op),
        shape_(op.type().shape()), in_(op.operand(0)->type().shape()),
        dim_(static_cast<size_t>(op.intAttrOr("dim", 0))), k_(op.intAttrOr("k", 0)),
        largest_(op.intAttrOr("largest", 1) != 0), element_(op.operand(0)->type().elementType()),
        value_(computeType(b_.getContext(), element_)) {
    length_ = gen_.dim(in_[dim_]);
  }

  void emit(llvm::Value *blockId) {
    BlockLines lines(group_, shape_, dim_, blockId);
    inner_ = lines.inner;
    bool oneLane = isSingleLane(ctx_.target.laneCount(b_));
    values_ = kernelStackArray(b_, value_, k_, "topk.values");
    // (Room for the register lanes' indices: k rounded up, keptLanes().)
    indices_ = kernelStackArray(b_, b_.getInt64Ty(), keptLanes(), "topk.indices");
    chunk_ = oneLane ? kernelStackArray(b_, value_, kTopKChunk, "topk.chunk") : nullptr;
    lines.forEachLine([&](const Line &line) { walkLine(line, oneLane); });
  }

private:
  llvm::Value *at(llvm::Value *array, llvm::Type *element, llvm::Value *i) {
    return b_.CreateInBoundsGEP(element, array, {i});
  }

  /// Whether element value `x` goes before `y` in the order: larger
  /// (smaller) first; largest first, NaN before every number; smallest
  /// first, every number before NaN. Equal elements keep their line order,
  /// so a later one never beats an earlier one.
  llvm::Value *beats(llvm::Value *x, llvm::Value *y) {
    if (!isFloat(element_))
      return emitCompareOp(b_, largest_ ? "gt" : "lt", element_, x, y);
    llvm::Value *xNan = b_.CreateFCmpUNO(x, x);
    llvm::Value *yNan = b_.CreateFCmpUNO(y, y);
    if (largest_)
      return b_.CreateAnd(b_.CreateNot(yNan), b_.CreateOr(xNan, b_.CreateFCmpOGT(x, y)));
    return b_.CreateAnd(b_.CreateNot(xNan), b_.CreateOr(yNan, b_.CreateFCmpOLT(x, y)));
  }

  /// beats() of a chunk's elements and one kept element, with one vector
  /// compare where the kept one is a number (floats: the NaN cases of
  /// beats() decided by a scalar test of it).
  llvm::Value *chunkBeats(llvm::Value *elements, llvm::Value *worst) {
    auto lanes = static_cast<unsigned>(
        llvm::cast<llvm::FixedVectorType>(elements->getType())->getNumElements());
    llvm::Value *splat = b_.CreateVectorSplat(lanes, worst);
    if (!isFloat(element_))
      return beats(elements, splat);
    llvm::Value *worstNan = b_.CreateFCmpUNO(worst, worst);
    if (largest_) {
      // Nothing beats a NaN; x beats a number when x > it or x is NaN.
      return b_.CreateSelect(
          worstNan,
          llvm::Constant::getNullValue(elements->getType()->getWithNewType(b_.getInt1Ty())),
          b_.CreateFCmpUGT(elements, splat));
    }
    // Every number beats a NaN; x beats a number when x < it (not NaN).
    return b_.CreateSelect(worstNan, b_.CreateFCmpORD(elements, elements),
                           b_.CreateFCmpOLT(elements, splat));
  }

  /// Element `j` of the line (value `x`): kept when the arrays are not
  /// full yet (j < k) or it beats the k-th best, inserted after the kept
  /// elements it does not beat.
  void insert(llvm::Value *j, llvm::Value *x) {
    llvm::Function *fn = b_.GetInsertBlock()->getParent();
    llvm::LLVMContext &c = b_.getContext();
    llvm::Value *last = b_.getInt64(k_ - 1);
    llvm::Value *filling = b_.CreateICmpSLT(j, b_.getInt64(k_));
    auto *check = llvm::BasicBlock::Create(c, "topk.check", fn);
    auto *header = llvm::BasicBlock::Create(c, "topk.shift", fn);
    auto *compare = llvm::BasicBlock::Create(c, "topk.compare", fn);
    auto *move = llvm::BasicBlock::Create(c, "topk.move", fn);
    auto *place = llvm::BasicBlock::Create(c, "topk.place", fn);
    auto *done = llvm::BasicBlock::Create(c, "topk.done", fn);
    llvm::BasicBlock *entry = b_.GetInsertBlock();
    b_.CreateCondBr(filling, header, check);

    b_.SetInsertPoint(check);
    llvm::Value *worst = b_.CreateLoad(value_, at(values_, value_, last));
    b_.CreateCondBr(beats(x, worst), header, done);

    // From the free (or dropped) slot towards the front, move each kept
    // element x beats one slot back.
    b_.SetInsertPoint(header);
    llvm::PHINode *slot = b_.CreatePHI(b_.getInt64Ty(), 3, "topk.slot");
    slot->addIncoming(j, entry);
    slot->addIncoming(last, check);
    b_.CreateCondBr(b_.CreateICmpEQ(slot, b_.getInt64(0)), place, compare);

    b_.SetInsertPoint(compare);
    llvm::Value *previousSlot = b_.CreateSub(slot, b_.getInt64(1));
    llvm::Value *previous = b_.CreateLoad(value_, at(values_, value_, previousSlot));
    b_.CreateCondBr(beats(x, previous), move, place);

    b_.SetInsertPoint(move);
    b_.CreateStore(previous, at(values_, value_, slot));
    b_.CreateStore(b_.CreateLoad(b_.getInt64Ty(), at(indices_, b_.getInt64Ty(), previousSlot)),
                   at(indices_, b_.getInt64Ty(), slot));
    slot->addIncoming(previousSlot, move);
    b_.CreateBr(header);

    b_.SetInsertPoint(place);
    b_.CreateStore(x, at(values_, value_, slot));
    b_.CreateStore(j, at(indices_, b_.getInt64Ty(), slot));
    b_.CreateBr(done);

    b_.SetInsertPoint(done);
  }

  /// Walks one line and writes its k indices.
  void walkLine(const Line &line, bool oneLane) {
    auto element = [&](llvm::Value *j) {
      std::vector<llvm::Value *> index = line.indexAt(j);
      gen_.setElementPosition(in_, index, line.positionAt(b_, j, length_, inner_));
      llvm::Value *x = gen_.emit(op_.operand(0), index);
      gen_.clearElementPosition();
      return x;
    };
    if (k_ > 0) {
      if (oneLane) {
        walkChunked(element);
      } else {
        LoopResult walk = emitLoop(
            b_, b_.getInt64(0), length_, {},
            [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *>) {
              insert(j, element(j));
              return std::vector<llvm::Value *>{};
            },
            "topk.walk");
        ctx_.target.annotateRowLoop(walk.latch);
      }
    }
    LoopResult store = emitLoop(
        b_, b_.getInt64(0), b_.getInt64(k_), {},
        [&](llvm::Value *r, llvm::ArrayRef<llvm::Value *>) {
          std::vector<llvm::Value *> index = line.indexAt(r);
          llvm::Value *position = line.positionAt(b_, r, b_.getInt64(k_), inner_);
          gen_.setElementPosition(shape_, index, position);
          storeReduced(group_, b_.CreateLoad(b_.getInt64Ty(), at(indices_, b_.getInt64Ty(), r)),
                       index, position);
          gen_.clearElementPosition();
          return std::vector<llvm::Value *>{};
        },
        "topk.store");
    ctx_.target.annotateRowLoop(store.latch);
  }

  /// A value no element beats (the arrays' padding past a line's end).
  llvm::Value *neverBeats() {
    return reduceIdentity(b_.getContext(), largest_ ? OpKind::ReduceMax : OpKind::ReduceMin,
                          element_);
  }

  /// CPUs: the first k elements kept, then the rest of the line in chunks
  /// of kTopKChunk: the chunk's elements into a stack array (a loop the
  /// vectorizer takes), padded with a value no element beats; one vector
  /// compare of the chunk with the k-th best gives a bit per element that
  /// may be kept, and only those are inserted, lowest first. The k-th best only improves along the
  /// line, so an element that fails the compare would not be kept either. With k up to
  /// kTopKInRegisters the kept elements live in vector registers and an
  /// insertion is a few vector selects (insertInRegisters), without the
  /// branches of insert() that mispredict on every insertion.
  void walkChunked(const std::function<llvm::Value *(llvm::Value *j)> &element) {
    llvm::Value *chunk = b_.getInt64(kTopKChunk);
    auto *vectorType = llvm::FixedVectorType::get(value_, static_cast<unsigned>(kTopKChunk));
    llvm::Align align(64);
    bool inRegisters = k_ <= kTopKInRegisters;
    int64_t kept = keptLanes();
    std::vector<llvm::Value *> initial;
    if (inRegisters)
      initial = {b_.CreateVectorSplat(static_cast<unsigned>(kept), neverBeats()),
                 llvm::Constant::getNullValue(
                     llvm::FixedVectorType::get(laneIndexType(), static_cast<unsigned>(kept))),
                 b_.getInt64(0)};
    // The first k elements are all kept.
    llvm::Value *filled = emitMin(b_, b_.getInt64(k_), length_);
    LoopResult fill = emitLoop(
        b_, b_.getInt64(0), filled, initial,
        [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *> state) {
          if (!inRegisters) {
            insert(j, element(j));
            return std::vector<llvm::Value *>{};
          }
          return insertInRegisters(state[0], state[1], state[2], j, element(j));
        },
        "topk.fill");
    ctx_.target.annotateRowLoop(fill.latch);
    LoopResult chunks = emitStridedLoop(
        b_, filled, length_, chunk, fill.carried,
        [&](llvm::Value *first, llvm::ArrayRef<llvm::Value *> state) {
          llvm::Value *width = emitMin(b_, chunk, b_.CreateSub(length_, first));
          loadChunk(first, width, element);
          llvm::Value *worst =
              inRegisters ? b_.CreateExtractElement(state[0], static_cast<uint64_t>(k_ - 1))
                          : b_.CreateLoad(value_, at(values_, value_, b_.getInt64(k_ - 1)));
          llvm::Value *elements = b_.CreateAlignedLoad(vectorType, chunk_, align);
          llvm::Value *better = b_.CreateBitCast(chunkBeats(elements, worst), b_.getInt64Ty());
          llvm::Value *loaded = b_.CreateLShr(b_.getInt64(~uint64_t{0}),
                                              b_.CreateSub(b_.getInt64(kTopKChunk), width));
          llvm::Value *mask = b_.CreateAnd(better, loaded);
          // Each set bit, lowest first.
          llvm::Function *fn = b_.GetInsertBlock()->getParent();
          llvm::BasicBlock *entry = b_.GetInsertBlock();
          auto *header = llvm::BasicBlock::Create(b_.getContext(), "topk.bits", fn);
          auto *body = llvm::BasicBlock::Create(b_.getContext(), "topk.bit", fn);
          auto *next = llvm::BasicBlock::Create(b_.getContext(), "topk.next", fn);
          b_.CreateBr(header);
          b_.SetInsertPoint(header);
          llvm::PHINode *bits = b_.CreatePHI(b_.getInt64Ty(), 2, "topk.left");
          bits->addIncoming(mask, entry);
          std::vector<llvm::PHINode *> carried;
          for (llvm::Value *v : state) {
            carried.push_back(b_.CreatePHI(v->getType(), 2));
            carried.back()->addIncoming(v, entry);
          }
          b_.CreateCondBr(b_.CreateICmpNE(bits, b_.getInt64(0)), body, next);
          b_.SetInsertPoint(body);
          llvm::Value *c = b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, bits, b_.getTrue());
          llvm::Value *j = b_.CreateAdd(first, c);
          llvm::Value *x = b_.CreateLoad(value_, at(chunk_, value_, c));
          std::vector<llvm::Value *> after;
          if (inRegisters)
            after = insertInRegisters(carried[0], carried[1], carried[2], j, x);
          else
            insert(j, x);
          bits->addIncoming(b_.CreateAnd(bits, b_.CreateSub(bits, b_.getInt64(1))),
                            b_.GetInsertBlock());
          for (size_t i = 0; i < carried.size(); ++i)
            carried[i]->addIncoming(after[i], b_.GetInsertBlock());
          b_.CreateBr(header);
          b_.SetInsertPoint(next);
          return std::vector<llvm::Value *>(carried.begin(), carried.end());
        },
        "topk.chunks");
    ctx_.target.annotateRowLoop(chunks.latch);
    if (inRegisters)
      b_.CreateAlignedStore(
          b_.CreateSExt(chunks.carried[1],
                        llvm::FixedVectorType::get(b_.getInt64Ty(), static_cast<unsigned>(kept))),
          indices_, align);
  }

  /// The chunk's `width` elements from `first` into the stack array (a
  /// whole chunk in a loop of constant trips: emitChunkLoop), the rest of
  /// it padded with a value no element beats.
  void loadChunk(llvm::Value *first, llvm::Value *width,
                 const std::function<llvm::Value *(llvm::Value *j)> &element) {
    std::array<llvm::BranchInst *, 2> latches = emitChunkLoop(
        b_, width, kTopKChunk,
        [&](llvm::Value *c) {
          b_.CreateStore(element(b_.CreateAdd(first, c)), at(chunk_, value_, c));
        },
        "topk.load");
    ctx_.target.annotateInnerLoop(latches[0], kTopKChunk, narrowVectorWidth(group_.group));
    ctx_.target.annotateInnerLoop(latches[1], 0, narrowVectorWidth(group_.group));
    LoopResult pad = emitLoop(
        b_, width, b_.getInt64(kTopKChunk), {},
        [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *>) {
          b_.CreateStore(neverBeats(), at(chunk_, value_, c));
          return std::vector<llvm::Value *>{};
        },
        "topk.pad");
    ctx_.target.annotateRowLoop(pad.latch);
  }

  /// The type of the indices kept in registers: i32 where the line's
  /// length is a constant that fits (half the registers of i64 lanes).
  llvm::Type *laneIndexType() const {
    std::optional<int64_t> length = in_[dim_].constantValue();
    return length && *length <= INT32_MAX ? b_.getInt32Ty() : b_.getInt64Ty();
  }

  /// The vector lanes that hold the kept elements in registers: k rounded
  /// up to a power of two (lanes past k hold elements that are not kept).
  int64_t keptLanes() const {
    int64_t lanes = 1;
    while (lanes < k_)
      lanes *= 2;
    return lanes;
  }

  /// Inserts element `j` (value `x`) into the kept elements `values` and
  /// `indices` (vectors, best first; the first `count` lanes used) and
  /// returns them and the new count. Lane i moves to lane i + 1 where x
  /// beats it or the lane is unused, and x goes to the first such lane:
  /// the lanes x beats are the tail of the used ones, so a shift of the
  /// vectors and two selects insert it. An x that beats no kept lane (only
  /// lanes past k, if any) changes nothing that is kept.
  std::vector<llvm::Value *> insertInRegisters(llvm::Value *values, llvm::Value *indices,
                                               llvm::Value *count, llvm::Value *j, llvm::Value *x) {
    int64_t lanes = keptLanes();
    auto n = static_cast<unsigned>(lanes);
    std::vector<llvm::Constant *> laneIds;
    for (int64_t i = 0; i < lanes; ++i)
      laneIds.push_back(b_.getInt64(static_cast<uint64_t>(i)));
    llvm::Value *unused =
        b_.CreateICmpSGE(llvm::ConstantVector::get(laneIds), b_.CreateVectorSplat(n, count));
    llvm::Value *moves = b_.CreateOr(beats(b_.CreateVectorSplat(n, x), values), unused);
    // Lane i of a shifted vector is lane i - 1 (lane 0: the fill).
    auto shifted = [&](llvm::Value *v, llvm::Value *fill) {
      std::vector<int> mask{static_cast<int>(lanes)};
      for (int64_t i = 0; i + 1 < lanes; ++i)
        mask.push_back(static_cast<int>(i));
      return b_.CreateShuffleVector(v, b_.CreateVectorSplat(n, fill), mask);
    };
    llvm::Value *movedBefore = shifted(moves, b_.getFalse());
    auto place = [&](llvm::Value *v, llvm::Value *element) {
      return b_.CreateSelect(
          moves,
          b_.CreateSelect(movedBefore, shifted(v, element), b_.CreateVectorSplat(n, element)), v);
    };
    return {place(values, x), place(indices, b_.CreateTrunc(j, laneIndexType())),
            emitMin(b_, b_.CreateAdd(count, b_.getInt64(1)), b_.getInt64(lanes))};
  }

  GroupEmission &group_;
  ElementGenerator &gen_;
  KernelContext &ctx_;
  llvm::IRBuilder<> &b_;
  const Operation &op_;
  const std::vector<DimExpr> &shape_;
  const std::vector<DimExpr> &in_;
  size_t dim_;
  int64_t k_;
  bool largest_;
  ElementType element_;
  llvm::Type *value_;
  llvm::Value *length_ = nullptr;
  llvm::Value *inner_ = nullptr;
  llvm::Value *values_ = nullptr;
  llvm::Value *indices_ = nullptr;
  llvm::Value *chunk_ = nullptr;
};

} // namespace

void emitTopKBlock(GroupEmission &group, llvm::Value *blockId) {
  TopKBlock(group, *group.group.dominant).emit(blockId);
}

} // namespace xs
