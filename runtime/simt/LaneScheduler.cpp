#include "runtime/simt/LaneScheduler.h"

#include <ucontext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/JitCall.h"

namespace xs {
namespace {

/// NVIDIA's shuffles name their warp's threads in a 32-bit member mask.
constexpr int64_t kMemberMaskWarp = 32;
/// Each thread's stack: kernels keep their state in registers and shared
/// memory, so a thread's frames are small; the pages a thread never touches
/// are never committed.
constexpr size_t kLaneStackBytes = 256 * 1024;
constexpr size_t kSharedAlignment = 16;
/// Bytes after a block's shared memory that must keep their pattern: a
/// kernel writing past the shared memory its launch gives it (a GPU faults).
constexpr size_t kSharedGuardBytes = 4096;
constexpr unsigned char kGuardByte = 0xa5;

enum class LaneState { Ready, AtBarrier, AtShuffle, AtGridBarrier, Done };

struct Lane {
  SimtLaneContext context{};
  ucontext_t coroutine{};
  LaneState state = LaneState::Ready;
  int32_t shuffleValue = 0;
  int64_t shuffleSource = 0; // the lane of the warp whose value it reads
  bool shuffleChecksMembers = false;
  int32_t shuffleMembers = 0;
  int32_t shuffleResult = 0;
};

class BlockScheduler;
thread_local BlockScheduler *tCurrentScheduler = nullptr;

class BlockScheduler {
public:
  /// `resident` blocks of `lanes` threads each run together (a cooperative
  /// launch), each with `sharedCapacity` bytes of shared memory at most.
  BlockScheduler(int64_t lanes, int64_t sharedCapacity, int64_t resident, int64_t warp)
      : laneCount_(lanes), sharedCapacity_(sharedCapacity), resident_(resident), warp_(warp),
        lanes_(static_cast<size_t>(lanes * resident)),
        stacks_(new char[kLaneStackBytes * static_cast<size_t>(lanes * resident)]),
        shared_(
            static_cast<char *>(std::aligned_alloc(
                kSharedAlignment, sharedStride(sharedCapacity) * static_cast<size_t>(resident))),
            &std::free) {}

  bool fits(int64_t lanes, int64_t sharedBytes, int64_t resident, int64_t warp) const {
    return lanes == laneCount_ && sharedBytes <= sharedCapacity_ && resident == resident_ &&
           warp == warp_;
  }

  /// Runs block `block` alone with `sharedBytes` of shared memory (at most
  /// the capacity).
  void run(SimtLaneFn fn, void *const *buffers, int64_t *dims, int64_t block, int64_t sharedBytes) {
    runTogether(fn, buffers, dims, block, 1, sharedBytes);
  }

  /// Runs the scheduler's resident blocks together as blocks 0, 1, ... of a
  /// grid of that many (a cooperative launch: the kernel strides over its
  /// plan's blocks).
  void runCooperative(SimtLaneFn fn, void *const *buffers, int64_t *dims, int64_t sharedBytes) {
    runTogether(fn, buffers, dims, 0, resident_, sharedBytes);
  }

private:
  static size_t roundedShared(int64_t bytes) {
    size_t size = static_cast<size_t>(std::max<int64_t>(bytes, 1));
    return (size + kSharedAlignment - 1) / kSharedAlignment * kSharedAlignment;
  }
  /// Bytes from one block's shared memory to the next one's (guard bytes
  /// after each).
  static size_t sharedStride(int64_t capacity) {
    return roundedShared(capacity) + kSharedGuardBytes;
  }

  /// Blocks first, first + 1, ... (`blocks` of them, as many as are
  /// resident at most) run together, each in its slot of the scheduler's
  /// threads and shared memory; ctaid.x counts from `first`, nctaid.x is
  /// `blocks` (only cooperative kernels read it).
  void runTogether(SimtLaneFn fn, void *const *buffers, int64_t *dims, int64_t first,
                   int64_t blocks, int64_t sharedBytes) {
    fn_ = fn;
    buffers_ = buffers;
    dims_ = dims;
    first_ = first;
    active_ = static_cast<size_t>(blocks * laneCount_);
    size_t stride = sharedStride(sharedCapacity_);
    // AMD kernels read their workgroup and grid sizes from the packet.
    std::memset(packet_, 0, sizeof packet_);
    auto workgroupSize = static_cast<uint16_t>(laneCount_);
    auto gridSize = static_cast<uint32_t>(blocks * laneCount_);
    std::memcpy(packet_ + kSimtPacketWorkgroupSizeX, &workgroupSize, sizeof workgroupSize);
    std::memcpy(packet_ + kSimtPacketGridSizeX, &gridSize, sizeof gridSize);
    for (int64_t slot = 0; slot < blocks; ++slot) {
      char *shared = shared_.get() + static_cast<size_t>(slot) * stride;
      std::memset(shared, 0xff, static_cast<size_t>(sharedBytes));
      std::memset(shared + sharedBytes, kGuardByte, kSharedGuardBytes);
    }
    for (size_t i = 0; i < active_; ++i) {
      Lane &lane = lanes_[i];
      int64_t slot = static_cast<int64_t>(i) / laneCount_;
      lane.context = SimtLaneContext{static_cast<int64_t>(i) % laneCount_,
                                     laneCount_,
                                     first + slot,
                                     shared_.get() + static_cast<size_t>(slot) * stride,
                                     &barrier,
                                     &shuffleXor,
                                     this,
                                     blocks,
                                     &gridBarrier,
                                     &shuffleIndex,
                                     packet_};
      lane.state = LaneState::Ready;
      getcontext(&lane.coroutine);
      lane.coroutine.uc_stack.ss_sp = stacks_.get() + i * kLaneStackBytes;
      lane.coroutine.uc_stack.ss_size = kLaneStackBytes;
      lane.coroutine.uc_link = &scheduler_;
      makecontext(&lane.coroutine, &laneMain, 0);
    }
    BlockScheduler *outer = tCurrentScheduler;
    tCurrentScheduler = this;
    for (;;) {
      for (size_t i = 0; i < active_; ++i) {
        if (lanes_[i].state != LaneState::Ready)
          continue;
        current_ = i;
        swapcontext(&scheduler_, &lanes_[i].coroutine);
      }
      if (allDone())
        break;
      bool progressed = false;
      for (int64_t slot = 0; slot < blocks; ++slot)
        progressed = completeShuffles(slot) || progressed;
      for (int64_t slot = 0; slot < blocks && !progressed; ++slot)
        progressed = openBarrier(slot) || progressed;
      if (!progressed && !openGridBarrier())
        diverged();
    }
    tCurrentScheduler = outer;
    for (int64_t slot = 0; slot < blocks; ++slot) {
      const char *guard = shared_.get() + static_cast<size_t>(slot) * stride + sharedBytes;
      for (size_t i = 0; i < kSharedGuardBytes; ++i)
        if (static_cast<unsigned char>(guard[i]) != kGuardByte)
          fail(first + slot, "a thread wrote past the block's " + std::to_string(sharedBytes) +
                                 " bytes of shared memory (at byte " +
                                 std::to_string(sharedBytes + static_cast<int64_t>(i)) + ")");
    }
  }

  /// The lanes of the block in `slot`: [begin, end) of lanes_.
  size_t slotBegin(int64_t slot) const { return static_cast<size_t>(slot * laneCount_); }
  size_t slotEnd(int64_t slot) const { return static_cast<size_t>((slot + 1) * laneCount_); }

  XSTITCH_CALLS_JIT_CODE static void laneMain() {
    BlockScheduler *self = tCurrentScheduler;
    Lane &lane = self->lanes_[self->current_];
    self->fn_(self->buffers_, self->dims_, 0, &lane.context);
    lane.state = LaneState::Done;
    // Returning resumes the scheduler (uc_link).
  }

  static Lane &laneOf(SimtLaneContext *context) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    int64_t slot = context->blockId - self->first_;
    return self->lanes_[static_cast<size_t>(slot * self->laneCount_ + context->laneId)];
  }

  static void suspend(SimtLaneContext *context) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    swapcontext(&laneOf(context).coroutine, &self->scheduler_);
  }

  static void barrier(SimtLaneContext *context) {
    laneOf(context).state = LaneState::AtBarrier;
    suspend(context);
  }

  static void gridBarrier(SimtLaneContext *context) {
    laneOf(context).state = LaneState::AtGridBarrier;
    suspend(context);
  }

  static int32_t shuffleXor(SimtLaneContext *context, int32_t members, int32_t value,
                            int32_t laneMask, int32_t clamp) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    // Only whole-warp segments (c = 31) are modelled: a narrower one is a
    // form the emitter does not use.
    if (clamp != kMemberMaskWarp - 1 || self->warp_ != kMemberMaskWarp)
      self->fail(context->blockId, "thread " + std::to_string(context->laneId) +
                                       " shuffles with clamp " + std::to_string(clamp) +
                                       " in warps of " + std::to_string(self->warp_) +
                                       "; the simulation models whole warps of 32 (31) only");
    Lane &lane = laneOf(context);
    lane.shuffleSource = ((context->laneId % self->warp_) ^ laneMask) & (self->warp_ - 1);
    lane.shuffleChecksMembers = true;
    lane.shuffleMembers = members;
    return waitForShuffle(context, value);
  }

  static int32_t shuffleIndex(SimtLaneContext *context, int32_t value, int32_t sourceLane) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    Lane &lane = laneOf(context);
    lane.shuffleSource = sourceLane & (self->warp_ - 1);
    lane.shuffleChecksMembers = false;
    return waitForShuffle(context, value);
  }

  static int32_t waitForShuffle(SimtLaneContext *context, int32_t value) {
    Lane &lane = laneOf(context);
    lane.state = LaneState::AtShuffle;
    lane.shuffleValue = value;
    suspend(context);
    return lane.shuffleResult;
  }

  bool allDone() const {
    for (size_t i = 0; i < active_; ++i)
      if (lanes_[i].state != LaneState::Done)
        return false;
    return true;
  }

  /// Completes the shuffle of every warp of the block in `slot` whose
  /// threads all wait at one.
  bool completeShuffles(int64_t slot) {
    bool progressed = false;
    int64_t block = first_ + slot;
    size_t base = slotBegin(slot);
    for (int64_t first = 0; first < laneCount_; first += warp_) {
      int64_t size = std::min(warp_, laneCount_ - first);
      bool all = true;
      for (int64_t i = first; i < first + size; ++i)
        all = all && lanes_[base + static_cast<size_t>(i)].state == LaneState::AtShuffle;
      if (!all)
        continue;
      for (int64_t i = first; i < first + size; ++i) {
        Lane &lane = lanes_[base + static_cast<size_t>(i)];
        // Member masks are NVIDIA's (warps of at most 32); a wavefront of 64
        // has none to check.
        uint32_t expected = size >= kMemberMaskWarp ? 0xffffffffu : (uint32_t(1) << size) - 1;
        if (lane.shuffleChecksMembers && static_cast<uint32_t>(lane.shuffleMembers) != expected)
          fail(block, "thread " + std::to_string(i) + " shuffles with member mask " +
                          std::to_string(static_cast<uint32_t>(lane.shuffleMembers)) +
                          " but its warp's threads are " + std::to_string(expected));
        int64_t source = lane.shuffleSource;
        if (source >= size)
          fail(block, "thread " + std::to_string(i) + " shuffles from a thread its warp lacks");
        lane.shuffleResult = lanes_[base + static_cast<size_t>(first + source)].shuffleValue;
      }
      for (int64_t i = first; i < first + size; ++i)
        lanes_[base + static_cast<size_t>(i)].state = LaneState::Ready;
      progressed = true;
    }
    return progressed;
  }

  /// Opens the block barrier of the block in `slot` when every thread of
  /// it that has not finished waits there.
  bool openBarrier(int64_t slot) {
    bool any = false;
    for (size_t i = slotBegin(slot); i < slotEnd(slot); ++i) {
      LaneState state = lanes_[i].state;
      if (state == LaneState::AtShuffle || state == LaneState::AtGridBarrier)
        return false;
      any = any || state == LaneState::AtBarrier;
    }
    if (!any)
      return false;
    for (size_t i = slotBegin(slot); i < slotEnd(slot); ++i)
      if (lanes_[i].state == LaneState::AtBarrier)
        lanes_[i].state = LaneState::Ready;
    return true;
  }

  /// Opens the grid barrier when every thread of every block runs to it: a
  /// thread that finished first would leave the others waiting forever.
  bool openGridBarrier() {
    for (size_t i = 0; i < active_; ++i)
      if (lanes_[i].state != LaneState::AtGridBarrier)
        return false;
    for (size_t i = 0; i < active_; ++i)
      lanes_[i].state = LaneState::Ready;
    return true;
  }

  [[noreturn]] void diverged() {
    int64_t blocks = static_cast<int64_t>(active_) / laneCount_;
    for (int64_t slot = 0; slot < blocks; ++slot) {
      int64_t atBarrier = 0, atShuffle = 0, atGrid = 0, done = 0;
      for (size_t i = slotBegin(slot); i < slotEnd(slot); ++i) {
        atBarrier += lanes_[i].state == LaneState::AtBarrier;
        atShuffle += lanes_[i].state == LaneState::AtShuffle;
        atGrid += lanes_[i].state == LaneState::AtGridBarrier;
        done += lanes_[i].state == LaneState::Done;
      }
      if (atGrid == laneCount_ && blocks > 1)
        continue;
      fail(first_ + slot,
           "its threads diverged: " + std::to_string(atBarrier) + " wait at a barrier, " +
               std::to_string(atShuffle) + " at a shuffle, " +
               (atGrid > 0 ? std::to_string(atGrid) + " at a grid barrier, " : std::string()) +
               std::to_string(done) + " finished");
    }
    fail(first_, "the blocks of a cooperative launch diverged at a grid barrier");
  }

  [[noreturn]] void fail(int64_t block, const std::string &what) {
    std::fprintf(stderr,
                 "xstitch: internal error in the SIMT simulation: block %lld of %lld threads: "
                 "%s\n",
                 static_cast<long long>(block), static_cast<long long>(laneCount_), what.c_str());
    std::abort();
  }

  int64_t laneCount_;
  int64_t sharedCapacity_;
  int64_t resident_;
  int64_t warp_;
  std::vector<Lane> lanes_;
  std::unique_ptr<char[]> stacks_;
  std::unique_ptr<char, decltype(&std::free)> shared_;
  ucontext_t scheduler_{};
  size_t current_ = 0;
  size_t active_ = 0; // lanes of the blocks running now
  int64_t first_ = 0; // ctaid.x of the first of them
  SimtLaneFn fn_ = nullptr;
  void *const *buffers_ = nullptr;
  int64_t *dims_ = nullptr;
  alignas(16) unsigned char packet_[kSimtPacketBytes] = {};
};

} // namespace

void runSimtBlocks(SimtLaneFn lane, void *const *buffers, int64_t *dims, int64_t begin, int64_t end,
                   int64_t lanes, int64_t sharedBytes, int64_t warpWidth) {
  // Each worker thread keeps its scheduler (stacks and shared memory) for
  // the next launch of the same shape.
  thread_local std::unique_ptr<BlockScheduler> scheduler;
  if (!scheduler || !scheduler->fits(lanes, sharedBytes, 1, warpWidth))
    scheduler = std::make_unique<BlockScheduler>(lanes, sharedBytes, 1, warpWidth);
  for (int64_t block = begin; block < end; ++block)
    scheduler->run(lane, buffers, dims, block, sharedBytes);
}

void runSimtGrid(SimtLaneFn lane, void *const *buffers, int64_t *dims, int64_t begin, int64_t end,
                 int64_t lanes, int64_t sharedBytes, int64_t warpWidth) {
  if (end <= begin)
    return;
  int64_t resident = std::min<int64_t>(end - begin, kSimtResidentBlocks);
  thread_local std::unique_ptr<BlockScheduler> scheduler;
  if (!scheduler || !scheduler->fits(lanes, sharedBytes, resident, warpWidth))
    scheduler = std::make_unique<BlockScheduler>(lanes, sharedBytes, resident, warpWidth);
  scheduler->runCooperative(lane, buffers, dims, sharedBytes);
}

} // namespace xs
