#include "backends/common/GpuTargetDescription.h"

#include <algorithm>

namespace xs {

namespace {

/// TargetDescription::elementsPerLane on GPUs.
constexpr int64_t kElementsPerLane = 8;

} // namespace

TargetDescription gpuTargetDescription(const GpuOccupancyLimits &limits, int64_t lanesPerBlock) {
  TargetDescription t;
  t.name = limits.name;
  lanesPerBlock = std::clamp(lanesPerBlock / limits.warpWidth * limits.warpWidth, limits.warpWidth,
                             limits.maxThreadsPerBlock);
  t.lanesPerBlock = lanesPerBlock;
  t.warpWidth = limits.warpWidth;
  // Blocks of this size that fit a multiprocessor by threads and by its
  // block limit; each may take an equal share of its shared memory.
  int64_t blocksPerUnit =
      std::max<int64_t>(1, std::min(limits.maxBlocksPerMultiprocessor,
                                    limits.maxThreadsPerMultiprocessor / lanesPerBlock));
  t.blockBufferBytes =
      std::min(limits.sharedBytesPerBlock, limits.sharedBytesPerMultiprocessor / blocksPerUnit);
  t.parallelUnits = limits.multiprocessors * blocksPerUnit;
  t.gridBarrier = true;
  t.stagesTransposeTiles = true;
  t.vectorBytes = 16;
  // Each lane takes two 16-byte vectors of f32 per pass over a row; a split
  // row gives a block a chunk that keeps all its lanes that busy.
  t.elementsPerLane = kElementsPerLane;
  t.minElementsPerBlock = lanesPerBlock * kElementsPerLane;
  // Rows a warp covers pack a block's worth of elements, a warp each.
  t.packedRowElements = t.minElementsPerBlock;
  return t;
}

} // namespace xs
