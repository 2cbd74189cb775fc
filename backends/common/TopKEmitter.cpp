// top_k on the Scan mapping (layout in GroupEmitter.h): each line of the
// block's rows is walked once in index order, keeping its k best elements
// so far sorted best first; a better element is inserted in order and the
// worst drops out. GPUs: a lane per line, as scans, the kept values and
// indices in two stack arrays (local memory). CPUs: the lines in turn, each
// in chunks whose elements are loaded by a loop the vectorizer takes and
// compared with the k-th best in one vector compare; only the elements that
// beat it (rare once the line's start has filled the arrays) are inserted.
// For k up to 64 and elements of up to 32 bits (on AVX2 and later) the kept
// elements are one vector of packed keys (value order key and index in an
// i64, so that their order is one signed compare), and an insertion is a
// shift, a min and a max per register; otherwise two vectors of values and
// indices (k up to 64) or the stack arrays.
// The indices are written at the end of the line.

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
/// lanes of i64 packed keys: 16 AVX2 registers' worth, 8 of AVX-512);
/// larger k keeps them in stack arrays.
constexpr int64_t kTopKInRegisters = 64;
/// CPUs: lines shorter than this have their indices packed into 32 bits of
/// a key, none of them all ones (TopKBlock::packKey).
constexpr int64_t kPackedLineLimit = (int64_t{1} << 32) - 1;

using ElementFn = std::function<llvm::Value *(llvm::Value *j)>;

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
    keyChunk_ = oneLane && packsKeys()
                    ? kernelStackArray(b_, b_.getInt32Ty(), kTopKChunk, "topk.keys")
                    : nullptr;
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
        walkCpu(element);
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

  /// A value no element beats (insertInRegisters' lanes before their use).
  llvm::Value *neverBeats() {
    return reduceIdentity(b_.getContext(), largest_ ? OpKind::ReduceMax : OpKind::ReduceMin,
                          element_);
  }

  /// Whether the CPU walk may keep the line's k best in a vector of packed
  /// keys (packKeys): elements of 32 bits or fewer, k up to kTopKInRegisters,
  /// and vectors of 32 bytes or more (AVX2: without it the min and max of
  /// 64-bit lanes are several instructions each, and k 50 ran 1.7 times
  /// slower than insertInRegisters).
  bool packsKeys() const {
    return k_ <= kTopKInRegisters && element_ != ElementType::F64 && element_ != ElementType::I64 &&
           ctx_.target.description().vectorBytes >= 32;
  }

  /// CPUs: walkPacked where the line's indices fit the 32 bits of a packed
  /// key (a branch on the length where it is symbolic), else walkChunked.
  void walkCpu(const ElementFn &element) {
    if (!packsKeys()) {
      walkChunked(element);
      return;
    }
    if (std::optional<int64_t> n = in_[dim_].constantValue()) {
      if (*n < kPackedLineLimit)
        walkPacked(element);
      else
        walkChunked(element);
      return;
    }
    emitIfElseValues(
        b_, b_.CreateICmpULT(length_, b_.getInt64(kPackedLineLimit)),
        [&] {
          walkPacked(element);
          return std::vector<llvm::Value *>{};
        },
        [&] {
          walkChunked(element);
          return std::vector<llvm::Value *>{};
        });
  }

  /// CPUs where packed keys do not serve (packsKeys, lines of 2^32 - 1
  /// elements or more): the first k elements kept, then the rest of the
  /// line in chunks of kTopKChunk. One vector compare of a chunk with the
  /// k-th best gives a bit per element that may be kept, and only those are
  /// inserted, lowest first: the k-th best only improves along the line, so
  /// an element that fails the compare would not be kept either. With k up
  /// to kTopKInRegisters the kept values and indices are two vectors and an
  /// insertion a few selects (insertInRegisters), else the stack arrays.
  void walkChunked(const ElementFn &element) {
    bool inRegisters = k_ <= kTopKInRegisters;
    auto lanes = static_cast<unsigned>(keptLanes());
    std::vector<llvm::Value *> initial;
    if (inRegisters)
      initial = {b_.CreateVectorSplat(lanes, neverBeats()),
                 llvm::Constant::getNullValue(llvm::FixedVectorType::get(laneIndexType(), lanes)),
                 b_.getInt64(0)};
    auto keep = [&](llvm::Value *j, llvm::Value *x, llvm::ArrayRef<llvm::Value *> state) {
      if (!inRegisters) {
        insert(j, x);
        return std::vector<llvm::Value *>{};
      }
      return insertInRegisters(state[0], state[1], state[2], j, x);
    };
    llvm::Value *filled = emitMin(b_, b_.getInt64(k_), length_);
    LoopResult fill = emitLoop(
        b_, b_.getInt64(0), filled, initial,
        [&](llvm::Value *j, llvm::ArrayRef<llvm::Value *> state) {
          return keep(j, element(j), state);
        },
        "topk.fill");
    ctx_.target.annotateRowLoop(fill.latch);
    LoopResult chunks = emitStridedLoop(
        b_, filled, length_, b_.getInt64(kTopKChunk), fill.carried,
        [&](llvm::Value *first, llvm::ArrayRef<llvm::Value *> state) {
          llvm::Value *width = loadChunk(first, element);
          llvm::Value *worst =
              inRegisters ? b_.CreateExtractElement(state[0], static_cast<uint64_t>(k_ - 1))
                          : b_.CreateLoad(value_, at(values_, value_, b_.getInt64(k_ - 1)));
          llvm::Value *better = b_.CreateBitCast(chunkBeats(loadedChunk(), worst), b_.getInt64Ty());
          return forEachSetBit(b_.CreateAnd(better, loadedBits(width)), state,
                               [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *> kept) {
                                 return keep(b_.CreateAdd(first, c),
                                             b_.CreateLoad(value_, at(chunk_, value_, c)), kept);
                               });
        },
        "topk.chunks");
    ctx_.target.annotateRowLoop(chunks.latch);
    if (inRegisters)
      b_.CreateAlignedStore(
          b_.CreateSExt(chunks.carried[1], llvm::FixedVectorType::get(b_.getInt64Ty(), lanes)),
          indices_, llvm::Align(64));
  }

  /// The type of the indices insertInRegisters keeps: i32 where the line's
  /// length is a constant that fits (half the registers of i64 lanes).
  llvm::Type *laneIndexType() const {
    std::optional<int64_t> length = in_[dim_].constantValue();
    return length && *length <= INT32_MAX ? b_.getInt32Ty() : b_.getInt64Ty();
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
    auto n = static_cast<unsigned>(keptLanes());
    std::vector<llvm::Constant *> laneIds;
    for (unsigned i = 0; i < n; ++i)
      laneIds.push_back(b_.getInt64(i));
    llvm::Value *unused =
        b_.CreateICmpSGE(llvm::ConstantVector::get(laneIds), b_.CreateVectorSplat(n, count));
    llvm::Value *moves = b_.CreateOr(beats(b_.CreateVectorSplat(n, x), values), unused);
    llvm::Value *movedBefore = shiftLanes(moves, b_.getFalse());
    auto place = [&](llvm::Value *v, llvm::Value *element) {
      return b_.CreateSelect(
          moves,
          b_.CreateSelect(movedBefore, shiftLanes(v, element), b_.CreateVectorSplat(n, element)),
          v);
    };
    return {place(values, x), place(indices, b_.CreateTrunc(j, laneIndexType())),
            emitMin(b_, b_.CreateAdd(count, b_.getInt64(1)), b_.getInt64(n))};
  }

  /// Vector `v` moved one lane up: lane i holds lane i - 1, lane 0 `fill`.
  llvm::Value *shiftLanes(llvm::Value *v, llvm::Value *fill) {
    auto n = llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements();
    std::vector<int> previous{static_cast<int>(n)};
    for (unsigned i = 0; i + 1 < n; ++i)
      previous.push_back(static_cast<int>(i));
    return b_.CreateShuffleVector(v, b_.CreateVectorSplat(n, fill), previous);
  }

  /// CPUs, registers: the line's best so far as packed keys sorted best
  /// first in one vector of keptLanes() lanes (those past k hold keys that
  /// were pushed out), at the start all the padding key every element
  /// beats. The line is walked in chunks of kTopKChunk from its start: the
  /// chunk's order keys are compared with the one that beats the k-th best
  /// (beatingKey; the first chunk's all beat the padding) and those that
  /// beat it are packed and inserted, lowest first, each by a shift and a
  /// min and a max per register (insertPacked). The indices are the low
  /// halves of the k best keys at the end.
  void walkPacked(const ElementFn &element) {
    auto lanes = static_cast<unsigned>(keptLanes());
    llvm::Value *kept = b_.CreateVectorSplat(lanes, b_.getInt64(paddingKey()));
    // The first chunk in rounds of the first k lanes, the next k, 2k, ...
    // each compared with the k-th best after the rounds before it: compared
    // with the padding alone, all of it would be inserted.
    llvm::Value *zero = b_.getInt64(0);
    ChunkKeys head = loadKeys(zero, element);
    for (int64_t begin = 0, end = std::min(k_, kTopKChunk); begin < kTopKChunk;
         begin = end, end = std::min(2 * end, kTopKChunk)) {
      uint64_t round = (end == kTopKChunk ? ~uint64_t{0} : (uint64_t{1} << end) - 1) &
                       ~((uint64_t{1} << begin) - 1);
      llvm::Value *candidates = b_.CreateAnd(head.loaded, b_.getInt64(round));
      // Short lines end before the last rounds (the first one is never empty).
      if (begin == 0) {
        kept = insertBeating(kept, head, zero, candidates);
        continue;
      }
      kept = emitIfElse(
          b_, b_.CreateICmpNE(candidates, b_.getInt64(0)),
          [&] { return insertBeating(kept, head, zero, candidates); }, [&] { return kept; });
    }
    LoopResult chunks = emitStridedLoop(
        b_, b_.getInt64(kTopKChunk), length_, b_.getInt64(kTopKChunk), {kept},
        [&](llvm::Value *first, llvm::ArrayRef<llvm::Value *> state) {
          ChunkKeys chunk = loadKeys(first, element);
          return std::vector<llvm::Value *>{insertBeating(state[0], chunk, first, chunk.loaded)};
        },
        "topk.chunks");
    ctx_.target.annotateRowLoop(chunks.latch);
    llvm::Value *low =
        b_.CreateTrunc(chunks.carried[0], llvm::FixedVectorType::get(b_.getInt32Ty(), lanes));
    if (largest_)
      low = b_.CreateNot(low);
    b_.CreateAlignedStore(b_.CreateZExt(low, llvm::FixedVectorType::get(b_.getInt64Ty(), lanes)),
                          indices_, llvm::Align(64));
  }

  /// A chunk's order keys (also in the stack array keyChunk_) and the bits
  /// of its lanes that hold elements of the line.
  struct ChunkKeys {
    llvm::Value *keys;
    llvm::Value *loaded;
  };

  /// Loads the chunk from element `first` (loadChunk) and its order keys.
  ChunkKeys loadKeys(llvm::Value *first, const ElementFn &element) {
    llvm::Align align(64);
    llvm::Value *width = loadChunk(first, element);
    llvm::Value *keys = orderKeys(loadedChunk());
    b_.CreateAlignedStore(keys, keyChunk_, align);
    return {keys, loadedBits(width)};
  }

  /// Inserts into `kept` the elements of the chunk from element `first` in
  /// the lanes `candidates` (bits) that beat its k-th best; returns kept.
  llvm::Value *insertBeating(llvm::Value *kept, const ChunkKeys &chunk, llvm::Value *first,
                             llvm::Value *candidates) {
    llvm::Value *threshold = b_.CreateVectorSplat(
        static_cast<unsigned>(kTopKChunk),
        beatingKey(b_.CreateExtractElement(kept, static_cast<uint64_t>(k_ - 1))));
    llvm::Value *better = b_.CreateBitCast(largest_ ? b_.CreateICmpSGE(chunk.keys, threshold)
                                                    : b_.CreateICmpSLE(chunk.keys, threshold),
                                           b_.getInt64Ty());
    return forEachSetBit(b_.CreateAnd(better, candidates), {kept},
                         [&](llvm::Value *c, llvm::ArrayRef<llvm::Value *> state) {
                           llvm::Value *key =
                               b_.CreateLoad(b_.getInt32Ty(), at(keyChunk_, b_.getInt32Ty(), c));
                           return std::vector<llvm::Value *>{
                               insertPacked(state[0], packKey(key, b_.CreateAdd(first, c)))};
                         })[0];
  }

  /// Calls `body` for each set bit of the i64 `bits`, lowest first, with
  /// the bit's position and the values it carries; returns them after the
  /// last.
  std::vector<llvm::Value *> forEachSetBit(llvm::Value *bits, llvm::ArrayRef<llvm::Value *> initial,
                                           const LoopBody &body) {
    llvm::Function *fn = b_.GetInsertBlock()->getParent();
    llvm::BasicBlock *entry = b_.GetInsertBlock();
    auto *header = llvm::BasicBlock::Create(b_.getContext(), "topk.bits", fn);
    auto *bodyBlock = llvm::BasicBlock::Create(b_.getContext(), "topk.bit", fn);
    auto *next = llvm::BasicBlock::Create(b_.getContext(), "topk.next", fn);
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    llvm::PHINode *left = b_.CreatePHI(b_.getInt64Ty(), 2, "topk.left");
    left->addIncoming(bits, entry);
    std::vector<llvm::PHINode *> carried;
    for (llvm::Value *v : initial) {
      carried.push_back(b_.CreatePHI(v->getType(), 2));
      carried.back()->addIncoming(v, entry);
    }
    b_.CreateCondBr(b_.CreateICmpNE(left, b_.getInt64(0)), bodyBlock, next);
    b_.SetInsertPoint(bodyBlock);
    llvm::Value *bit = b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, left, b_.getTrue());
    std::vector<llvm::Value *> after =
        body(bit, std::vector<llvm::Value *>(carried.begin(), carried.end()));
    left->addIncoming(b_.CreateAnd(left, b_.CreateSub(left, b_.getInt64(1))), b_.GetInsertBlock());
    for (size_t i = 0; i < carried.size(); ++i)
      carried[i]->addIncoming(after[i], b_.GetInsertBlock());
    b_.CreateBr(header);
    b_.SetInsertPoint(next);
    return std::vector<llvm::Value *>(carried.begin(), carried.end());
  }

  llvm::FixedVectorType *chunkType() const {
    return llvm::FixedVectorType::get(value_, static_cast<unsigned>(kTopKChunk));
  }

  /// Loads the chunk of the line from `first` into the stack array (a whole
  /// chunk in a loop of constant trips: emitChunkLoop); returns its width
  /// (the line's elements in it). The lanes past it hold what an earlier
  /// chunk left (loadedChunk).
  llvm::Value *loadChunk(llvm::Value *first, const ElementFn &element) {
    llvm::Value *width = emitMin(b_, b_.getInt64(kTopKChunk), b_.CreateSub(length_, first));
    std::array<llvm::BranchInst *, 2> latches = emitChunkLoop(
        b_, width, kTopKChunk,
        [&](llvm::Value *c) {
          // Frozen: a loop that copies a parameter as it is would become a
          // call of memcpy (the line's last chunk, every chunk of a short
          // line), around which the vector registers are spilled.
          b_.CreateStore(b_.CreateFreeze(element(b_.CreateAdd(first, c))), at(chunk_, value_, c));
        },
        "topk.load");
    ctx_.target.annotateInnerLoop(latches[0], kTopKChunk, narrowVectorWidth(group_.group));
    ctx_.target.annotateInnerLoop(latches[1], 0, narrowVectorWidth(group_.group));
    return width;
  }

  /// The stack array's chunk as a vector. Its lanes past the line's end are
  /// frozen (never written in a kernel's first partial chunk) and every use
  /// of them is masked by loadedBits.
  llvm::Value *loadedChunk() {
    return b_.CreateFreeze(b_.CreateAlignedLoad(chunkType(), chunk_, llvm::Align(64)));
  }

  /// The bits of a chunk's first `width` lanes (1 to kTopKChunk).
  llvm::Value *loadedBits(llvm::Value *width) {
    return b_.CreateLShr(b_.getInt64(~uint64_t{0}), b_.CreateSub(b_.getInt64(kTopKChunk), width));
  }

  /// The vector lanes that hold the kept elements in registers: k rounded
  /// up to a power of two (lanes past k hold elements that are not kept).
  int64_t keptLanes() const {
    int64_t lanes = 1;
    while (lanes < k_)
      lanes *= 2;
    return lanes;
  }

  /// Order keys (i32) of a vector of element values: signed integers in
  /// the order of the values, every NaN the greatest (the first where the
  /// largest go first, the last otherwise, as beats() places them), -0
  /// equal to +0.
  llvm::Value *orderKeys(llvm::Value *values) {
    auto *type = llvm::cast<llvm::FixedVectorType>(values->getType());
    auto *keys = llvm::FixedVectorType::get(b_.getInt32Ty(), type->getNumElements());
    if (!isFloat(element_))
      return isSignedInteger(element_) ? b_.CreateSExt(values, keys) : b_.CreateZExt(values, keys);
    // Adding +0 turns -0 into +0 and leaves every other value as it is.
    llvm::Value *bits =
        b_.CreateBitCast(b_.CreateFAdd(values, llvm::ConstantFP::get(type, 0.0)), keys);
    // Negative floats order backwards as integers: flip their magnitude bits.
    llvm::Value *flip = b_.CreateLShr(b_.CreateAShr(bits, 31), 1);
    return b_.CreateSelect(b_.CreateFCmpUNO(values, values),
                           llvm::ConstantInt::get(keys, INT32_MAX), b_.CreateXor(bits, flip));
  }

  /// The packed key of element `j` of the line with order key `key`: the
  /// order key in the high 32 bits and the index in the low 32, inverted
  /// where the largest go first. Better elements have greater keys (largest
  /// first) or smaller ones (smallest first), equal values in line order,
  /// and no two elements of a line share a key: a signed compare of packed
  /// keys is beats(), ties included.
  llvm::Value *packKey(llvm::Value *key, llvm::Value *j) {
    llvm::Value *index = b_.CreateTrunc(j, b_.getInt32Ty());
    if (largest_)
      index = b_.CreateNot(index);
    return b_.CreateOr(b_.CreateShl(b_.CreateSExt(key, b_.getInt64Ty()), 32),
                       b_.CreateZExt(index, b_.getInt64Ty()));
  }

  /// The order key that a later element of the line needs at least (largest
  /// first; at most, smallest first) to beat the packed key `worst`: its own
  /// order key where worst is the padding, else the next one (an equal key
  /// comes earlier in the line). Saturated at the ends of the keys' range
  /// (a NaN's key, the integer extremes): an element that ties there is let
  /// through and inserted to no effect.
  llvm::Value *beatingKey(llvm::Value *worst) {
    llvm::Value *key = b_.CreateTrunc(b_.CreateAShr(worst, 32), b_.getInt32Ty());
    llvm::Value *real =
        b_.CreateZExt(b_.CreateICmpNE(worst, b_.getInt64(paddingKey())), b_.getInt32Ty());
    return b_.CreateBinaryIntrinsic(
        largest_ ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::ssub_sat, key, real);
  }

  /// The packed key every element beats (no element's index is all ones in
  /// the low half: lines are shorter than kPackedLineLimit).
  int64_t paddingKey() const { return largest_ ? INT64_MIN : INT64_MAX; }

  /// Inserts packed key `x` into `kept` (sorted best first): lane i becomes
  /// the i-th best of the kept keys and x, which is the worse of lane i - 1
  /// and the better of x and lane i (lane -1: a key that beats all).
  llvm::Value *insertPacked(llvm::Value *kept, llvm::Value *x) {
    auto n = static_cast<unsigned>(keptLanes());
    llvm::Value *shifted = shiftLanes(kept, b_.getInt64(largest_ ? INT64_MAX : INT64_MIN));
    llvm::Intrinsic::ID better = largest_ ? llvm::Intrinsic::smax : llvm::Intrinsic::smin;
    llvm::Intrinsic::ID worse = largest_ ? llvm::Intrinsic::smin : llvm::Intrinsic::smax;
    return b_.CreateBinaryIntrinsic(
        worse, shifted, b_.CreateBinaryIntrinsic(better, b_.CreateVectorSplat(n, x), kept));
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
  llvm::Value *keyChunk_ = nullptr;
};

} // namespace

void emitTopKBlock(GroupEmission &group, llvm::Value *blockId) {
  TopKBlock(group, *group.group.dominant).emit(blockId);
}

} // namespace xs
