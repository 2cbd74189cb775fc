// The SIMT simulations' lane scheduler (runtime/simt/LaneScheduler.h) on
// hand-written threads: ids, barriers, shuffles, shared memory, cooperative
// launches with grid barriers, and the divergence a GPU would hang on.

#include "runtime/simt/LaneScheduler.h"

#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace xs {
namespace {

// buffers[0]: int64 output, one slot per (block, thread).
int64_t *output(void *const *buffers) { return static_cast<int64_t *>(buffers[0]); }
int64_t slot(const SimtLaneContext *lane) { return lane->blockId * lane->laneCount + lane->laneId; }

void writeIds(void *const *buffers, int64_t *, int64_t, SimtLaneContext *lane) {
  output(buffers)[slot(lane)] = lane->blockId * 1000 + lane->laneId;
}

TEST(LaneSchedulerTest, RunsEveryThreadOfEveryBlockInTheRange) {
  std::vector<int64_t> out(6 * 64, -1);
  void *buffers[] = {out.data()};
  runSimtBlocks(&writeIds, buffers, nullptr, 2, 5, 64, 0, 32);
  for (int64_t block = 0; block < 6; ++block)
    for (int64_t lane = 0; lane < 64; ++lane)
      EXPECT_EQ(out[static_cast<size_t>(block * 64 + lane)],
                block >= 2 && block < 5 ? block * 1000 + lane : -1)
          << "block " << block << " lane " << lane;
}

// Each thread writes its id to shared memory, waits, and reads its
// neighbour's: only a barrier that waits for every thread gives the id.
void rotateThroughShared(void *const *buffers, int64_t *, int64_t, SimtLaneContext *lane) {
  auto *shared = static_cast<int32_t *>(lane->shared);
  shared[lane->laneId] = static_cast<int32_t>(lane->laneId);
  lane->barrier(lane);
  output(buffers)[slot(lane)] = shared[(lane->laneId + 1) % lane->laneCount];
}

TEST(LaneSchedulerTest, BarrierWaitsForEveryThread) {
  std::vector<int64_t> out(2 * 96);
  void *buffers[] = {out.data()};
  runSimtBlocks(&rotateThroughShared, buffers, nullptr, 0, 2, 96, 96 * 4, 32);
  for (int64_t i = 0; i < 2 * 96; ++i)
    EXPECT_EQ(out[static_cast<size_t>(i)], (i % 96 + 1) % 96) << i;
}

// Reading without the barrier: threads run one after another between
// barriers, so the last thread's slot is still unwritten when thread 0
// reads it, and reads the fill pattern (-1), as a race on a GPU may.
void rotateWithoutBarrier(void *const *buffers, int64_t *, int64_t, SimtLaneContext *lane) {
  auto *shared = static_cast<int32_t *>(lane->shared);
  shared[lane->laneId] = static_cast<int32_t>(lane->laneId);
  output(buffers)[slot(lane)] = shared[(lane->laneId + 1) % lane->laneCount];
}

TEST(LaneSchedulerTest, SharedMemoryNobodyWroteReadsAsAllOnes) {
  std::vector<int64_t> out(32);
  void *buffers[] = {out.data()};
  runSimtBlocks(&rotateWithoutBarrier, buffers, nullptr, 0, 1, 32, 32 * 4, 32);
  EXPECT_EQ(out[0], -1);
  EXPECT_EQ(out[30], -1);
  EXPECT_EQ(out[31], 0); // the last thread runs after every other wrote
}

// A butterfly sum over the warp, as SimtTarget::warpReduce emits it on NVIDIA.
void warpSum(void *const *buffers, int64_t *, int64_t, SimtLaneContext *lane) {
  int32_t value = static_cast<int32_t>(lane->laneId + 100 * lane->blockId);
  for (int32_t mask = 16; mask > 0; mask /= 2)
    value += lane->shuffleXor(lane, -1, value, mask, 31);
  output(buffers)[slot(lane)] = value;
}

TEST(LaneSchedulerTest, ShuffleXorExchangesWithinEachWarp) {
  std::vector<int64_t> out(64);
  void *buffers[] = {out.data()};
  runSimtBlocks(&warpSum, buffers, nullptr, 0, 1, 64, 0, 32);
  for (int64_t i = 0; i < 64; ++i) {
    int64_t warpBase = i / 32 * 32;
    EXPECT_EQ(out[static_cast<size_t>(i)], 32 * warpBase + 31 * 32 / 2) << i;
  }
}

// The same over a wavefront of 64 by AMD's ds_bpermute (a lane index per
// read), which also reads the workgroup and grid sizes from the dispatch
// packet.
void wavefrontSum(void *const *buffers, int64_t *, int64_t, SimtLaneContext *lane) {
  int32_t value = static_cast<int32_t>(lane->laneId);
  for (int32_t mask = 32; mask > 0; mask /= 2)
    value += lane->shuffleIndex(lane, value, static_cast<int32_t>(lane->laneId ^ mask));
  uint16_t workgroupSize = 0;
  uint32_t gridSize = 0;
  std::memcpy(&workgroupSize, static_cast<char *>(lane->dispatchPacket) + kSimtPacketWorkgroupSizeX,
              sizeof workgroupSize);
  std::memcpy(&gridSize, static_cast<char *>(lane->dispatchPacket) + kSimtPacketGridSizeX,
              sizeof gridSize);
  output(buffers)[slot(lane)] = value + 1000000 * workgroupSize + 1000000000LL * gridSize;
}

TEST(LaneSchedulerTest, ShuffleIndexExchangesWithinEachWavefront) {
  std::vector<int64_t> out(128);
  void *buffers[] = {out.data()};
  runSimtBlocks(&wavefrontSum, buffers, nullptr, 0, 1, 128, 0, 64);
  for (int64_t i = 0; i < 128; ++i) {
    int64_t waveBase = i / 64 * 64;
    EXPECT_EQ(out[static_cast<size_t>(i)],
              64 * waveBase + 63 * 64 / 2 + 1000000 * 128 + 1000000000LL * 128)
        << i;
  }
}

void readDims(void *const *buffers, int64_t *dims, int64_t, SimtLaneContext *lane) {
  output(buffers)[slot(lane)] = dims[lane->laneId % 2];
}

TEST(LaneSchedulerTest, ThreadsSeeTheKernelArguments) {
  std::vector<int64_t> out(32);
  int64_t dims[] = {7, 11};
  void *buffers[] = {out.data()};
  runSimtBlocks(&readDims, buffers, dims, 0, 1, 32, 0, 32);
  EXPECT_EQ(out[4], 7);
  EXPECT_EQ(out[5], 11);
}

// Thread 0 shuffles while the rest of its warp waits at a barrier: on a GPU
// this hangs; the scheduler reports it.
void shuffleInDivergentBranch(void *const *, int64_t *, int64_t, SimtLaneContext *lane) {
  if (lane->laneId == 0)
    lane->shuffleXor(lane, -1, 1, 1, 31);
  else
    lane->barrier(lane);
}

TEST(LaneSchedulerDeathTest, DivergedThreadsAreReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(runSimtBlocks(&shuffleInDivergentBranch, nullptr, nullptr, 0, 1, 32, 0, 32),
               "block 0 of 32 threads: its threads diverged: 31 wait at a barrier, 1 at a "
               "shuffle, 0 finished");
}

// A shuffle some threads of the warp never reach (they finished).
void shuffleAfterSomeFinish(void *const *, int64_t *, int64_t, SimtLaneContext *lane) {
  if (lane->laneId < 16)
    lane->shuffleXor(lane, -1, 1, 1, 31);
}

TEST(LaneSchedulerDeathTest, ShuffleWithFinishedThreadsIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(runSimtBlocks(&shuffleAfterSomeFinish, nullptr, nullptr, 0, 1, 32, 0, 32),
               "16 at a shuffle, 16 finished");
}

// A cooperative kernel over a grid of plan blocks: its blocks stride over
// them, each thread adding 1 to its plan block's counter; at the grid
// barrier every block's counts are in, and each thread then reads the
// total of all counters, which only a barrier waiting for every thread of
// every block gives. buffers[0]: int64 per plan block (counters), then one
// per (resident block, thread) for the totals; dims[0]: the plan's blocks.
void countThenSum(void *const *buffers, int64_t *dims, int64_t, SimtLaneContext *lane) {
  int64_t *counters = output(buffers);
  int64_t grid = dims[0];
  for (int64_t block = lane->blockId; block < grid; block += lane->blockCount)
    counters[block] += 1;
  lane->gridBarrier(lane);
  int64_t total = 0;
  for (int64_t block = 0; block < grid; ++block)
    total += counters[block];
  counters[grid + lane->blockId * lane->laneCount + lane->laneId] = total;
}

TEST(LaneSchedulerTest, GridBarrierWaitsForEveryBlockOfACooperativeLaunch) {
  const int64_t grid = 7, lanes = 64;
  std::vector<int64_t> out(static_cast<size_t>(grid + kSimtResidentBlocks * lanes), -1);
  for (int64_t block = 0; block < grid; ++block)
    out[static_cast<size_t>(block)] = 0;
  void *buffers[] = {out.data()};
  int64_t dims[] = {grid};
  runSimtGrid(&countThenSum, buffers, dims, 0, grid, lanes, 0, 32);
  for (int64_t block = 0; block < grid; ++block)
    EXPECT_EQ(out[static_cast<size_t>(block)], lanes) << "plan block " << block;
  for (int64_t i = 0; i < kSimtResidentBlocks * lanes; ++i)
    EXPECT_EQ(out[static_cast<size_t>(grid + i)], grid * lanes) << "thread " << i;
}

// Block 1 leaves before the grid barrier the others wait at: on a GPU they
// would wait forever.
void leaveBeforeGridBarrier(void *const *, int64_t *, int64_t, SimtLaneContext *lane) {
  if (lane->blockId != 1)
    lane->gridBarrier(lane);
}

TEST(LaneSchedulerDeathTest, BlocksMissingAGridBarrierAreReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(runSimtGrid(&leaveBeforeGridBarrier, nullptr, nullptr, 0, 3, 32, 0, 32),
               "block 1 of 32 threads: its threads diverged: 0 wait at a barrier, 0 at a "
               "shuffle, 32 finished");
}

// Thread 3 writes one word past the 64 bytes its launch gives the block.
void writePastShared(void *const *, int64_t *, int64_t, SimtLaneContext *lane) {
  auto *shared = static_cast<int32_t *>(lane->shared);
  shared[lane->laneId == 3 ? 16 : lane->laneId % 16] = 1;
}

TEST(LaneSchedulerDeathTest, WritesPastSharedMemoryAreReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(runSimtBlocks(&writePastShared, nullptr, nullptr, 0, 1, 32, 64, 32),
               "a thread wrote past the block's 64 bytes of shared memory \\(at byte 64\\)");
}

} // namespace
} // namespace xs
