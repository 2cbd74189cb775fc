#include "runtime/simt/LaneScheduler.h"

#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace xs {
namespace {

constexpr int64_t kWarp = 32;
/// Each thread's stack: kernels keep their state in registers and shared
/// memory, so a thread's frames are small; the pages a thread never touches
/// are never committed.
constexpr size_t kLaneStackBytes = 256 * 1024;
constexpr size_t kSharedAlignment = 16;
/// Bytes after a block's shared memory that must keep their pattern: a
/// kernel writing past the shared memory its launch gives it (a GPU faults).
constexpr size_t kSharedGuardBytes = 4096;
constexpr unsigned char kGuardByte = 0xa5;

enum class LaneState { Ready, AtBarrier, AtShuffle, Done };

struct Lane {
  SimtLaneContext context{};
  ucontext_t coroutine{};
  LaneState state = LaneState::Ready;
  int32_t shuffleValue = 0;
  int32_t shuffleLaneMask = 0;
  int32_t shuffleMembers = 0;
  int32_t shuffleResult = 0;
};

class BlockScheduler;
thread_local BlockScheduler *tCurrentScheduler = nullptr;

class BlockScheduler {
public:
  BlockScheduler(int64_t lanes, int64_t sharedCapacity)
      : laneCount_(lanes), sharedCapacity_(sharedCapacity), lanes_(static_cast<size_t>(lanes)),
        stacks_(new char[kLaneStackBytes * static_cast<size_t>(lanes)]),
        shared_(static_cast<char *>(std::aligned_alloc(
                    kSharedAlignment, roundedShared(sharedCapacity) + kSharedGuardBytes)),
                &std::free) {}

  bool fits(int64_t lanes, int64_t sharedBytes) const {
    return lanes == laneCount_ && sharedBytes <= sharedCapacity_;
  }

  /// Runs block `block` with `sharedBytes` of shared memory (at most the
  /// capacity).
  void run(SimtLaneFn fn, void *const *buffers, const int64_t *dims, int64_t block,
           int64_t sharedBytes) {
    fn_ = fn;
    buffers_ = buffers;
    dims_ = dims;
    std::memset(shared_.get(), 0xff, static_cast<size_t>(sharedBytes));
    char *guard = shared_.get() + sharedBytes;
    std::memset(guard, kGuardByte, kSharedGuardBytes);
    for (size_t i = 0; i < lanes_.size(); ++i) {
      Lane &lane = lanes_[i];
      lane.context = SimtLaneContext{
          static_cast<int64_t>(i), laneCount_, block, shared_.get(), &barrier, &shuffleXor, this};
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
      for (size_t i = 0; i < lanes_.size(); ++i) {
        if (lanes_[i].state != LaneState::Ready)
          continue;
        current_ = i;
        swapcontext(&scheduler_, &lanes_[i].coroutine);
      }
      if (allDone())
        break;
      if (!completeShuffles(block) && !openBarrier())
        diverged(block);
    }
    tCurrentScheduler = outer;
    for (size_t i = 0; i < kSharedGuardBytes; ++i)
      if (static_cast<unsigned char>(guard[i]) != kGuardByte)
        fail(block, "a thread wrote past the block's " + std::to_string(sharedBytes) +
                        " bytes of shared memory (at byte " +
                        std::to_string(sharedBytes + static_cast<int64_t>(i)) + ")");
  }

private:
  static size_t roundedShared(int64_t bytes) {
    size_t size = static_cast<size_t>(std::max<int64_t>(bytes, 1));
    return (size + kSharedAlignment - 1) / kSharedAlignment * kSharedAlignment;
  }

  static void laneMain() {
    BlockScheduler *self = tCurrentScheduler;
    Lane &lane = self->lanes_[self->current_];
    self->fn_(self->buffers_, self->dims_, 0, &lane.context);
    lane.state = LaneState::Done;
    // Returning resumes the scheduler (uc_link).
  }

  static Lane &laneOf(SimtLaneContext *context) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    return self->lanes_[static_cast<size_t>(context->laneId)];
  }

  static void suspend(SimtLaneContext *context) {
    auto *self = static_cast<BlockScheduler *>(context->scheduler);
    swapcontext(&laneOf(context).coroutine, &self->scheduler_);
  }

  static void barrier(SimtLaneContext *context) {
    laneOf(context).state = LaneState::AtBarrier;
    suspend(context);
  }

  static int32_t shuffleXor(SimtLaneContext *context, int32_t members, int32_t value,
                            int32_t laneMask, int32_t clamp) {
    Lane &lane = laneOf(context);
    // Only whole-warp segments (c = 31) are modelled: a narrower one is a
    // form the emitter does not use.
    if (clamp != kWarp - 1)
      static_cast<BlockScheduler *>(context->scheduler)
          ->fail(context->blockId, "thread " + std::to_string(context->laneId) +
                                       " shuffles with clamp " + std::to_string(clamp) +
                                       "; the simulation models whole warps (31) only");
    lane.state = LaneState::AtShuffle;
    lane.shuffleValue = value;
    lane.shuffleLaneMask = laneMask;
    lane.shuffleMembers = members;
    suspend(context);
    return lane.shuffleResult;
  }

  bool allDone() const {
    for (const Lane &lane : lanes_)
      if (lane.state != LaneState::Done)
        return false;
    return true;
  }

  /// Completes the shuffle of every warp whose threads all wait at one.
  bool completeShuffles(int64_t block) {
    bool progressed = false;
    for (int64_t first = 0; first < laneCount_; first += kWarp) {
      int64_t size = std::min(kWarp, laneCount_ - first);
      bool all = true;
      for (int64_t i = first; i < first + size; ++i)
        all = all && lanes_[static_cast<size_t>(i)].state == LaneState::AtShuffle;
      if (!all)
        continue;
      for (int64_t i = first; i < first + size; ++i) {
        Lane &lane = lanes_[static_cast<size_t>(i)];
        uint32_t expected = size == kWarp ? 0xffffffffu : (uint32_t(1) << size) - 1;
        if (static_cast<uint32_t>(lane.shuffleMembers) != expected)
          fail(block, "thread " + std::to_string(i) + " shuffles with member mask " +
                          std::to_string(static_cast<uint32_t>(lane.shuffleMembers)) +
                          " but its warp's threads are " + std::to_string(expected));
        int64_t source = ((i - first) ^ lane.shuffleLaneMask) & (kWarp - 1);
        if (source >= size)
          fail(block, "thread " + std::to_string(i) + " shuffles from a thread its warp lacks");
        lane.shuffleResult = lanes_[static_cast<size_t>(first + source)].shuffleValue;
      }
      for (int64_t i = first; i < first + size; ++i)
        lanes_[static_cast<size_t>(i)].state = LaneState::Ready;
      progressed = true;
    }
    return progressed;
  }

  /// Opens the barrier when every thread that has not finished waits at it.
  bool openBarrier() {
    bool any = false;
    for (const Lane &lane : lanes_) {
      if (lane.state == LaneState::AtShuffle)
        return false;
      any = any || lane.state == LaneState::AtBarrier;
    }
    if (!any)
      return false;
    for (Lane &lane : lanes_)
      if (lane.state == LaneState::AtBarrier)
        lane.state = LaneState::Ready;
    return true;
  }

  [[noreturn]] void diverged(int64_t block) {
    int64_t atBarrier = 0, atShuffle = 0, done = 0;
    for (const Lane &lane : lanes_) {
      atBarrier += lane.state == LaneState::AtBarrier;
      atShuffle += lane.state == LaneState::AtShuffle;
      done += lane.state == LaneState::Done;
    }
    fail(block, "its threads diverged: " + std::to_string(atBarrier) + " wait at a barrier, " +
                    std::to_string(atShuffle) + " at a shuffle, " + std::to_string(done) +
                    " finished");
  }

  [[noreturn]] void fail(int64_t block, const std::string &what) {
    std::fprintf(stderr,
                 "xstitch: internal error in the NVPTX simulation: block %lld of %lld threads: "
                 "%s\n",
                 static_cast<long long>(block), static_cast<long long>(laneCount_), what.c_str());
    std::abort();
  }

  int64_t laneCount_;
  int64_t sharedCapacity_;
  std::vector<Lane> lanes_;
  std::unique_ptr<char[]> stacks_;
  std::unique_ptr<char, decltype(&std::free)> shared_;
  ucontext_t scheduler_{};
  size_t current_ = 0;
  SimtLaneFn fn_ = nullptr;
  void *const *buffers_ = nullptr;
  const int64_t *dims_ = nullptr;
};

} // namespace

void runSimtBlocks(SimtLaneFn lane, void *const *buffers, const int64_t *dims, int64_t begin,
                   int64_t end, int64_t lanes, int64_t sharedBytes) {
  // Each worker thread keeps its scheduler (stacks and shared memory) for
  // the next launch of the same shape.
  thread_local std::unique_ptr<BlockScheduler> scheduler;
  if (!scheduler || !scheduler->fits(lanes, sharedBytes))
    scheduler = std::make_unique<BlockScheduler>(lanes, sharedBytes);
  for (int64_t block = begin; block < end; ++block)
    scheduler->run(lane, buffers, dims, block, sharedBytes);
}

} // namespace xs
