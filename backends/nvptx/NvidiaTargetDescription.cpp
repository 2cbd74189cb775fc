#include "backends/nvptx/NvidiaTargetDescription.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;

/// Per compute capability, from the CUDA C++ Programming Guide's table of
/// technical specifications; SM counts and L2 of the named part.
std::vector<NvidiaDeviceLimits> presets() {
  auto make = [](std::string arch, std::string part, int64_t sms, int64_t threadsPerSM,
                 int64_t blocksPerSM, int64_t sharedPerBlock, int64_t sharedPerSM, int64_t l2) {
    NvidiaDeviceLimits l;
    l.arch = std::move(arch);
    l.part = std::move(part);
    l.smCount = sms;
    l.maxThreadsPerSM = threadsPerSM;
    l.maxBlocksPerSM = blocksPerSM;
    l.sharedBytesPerBlock = sharedPerBlock;
    l.sharedBytesPerSM = sharedPerSM;
    l.l2Bytes = l2;
    return l;
  };
  return {
      make("sm_70", "V100", 80, 2048, 32, 96 * kKiB, 96 * kKiB, 6 * kMiB),
      make("sm_80", "A100", 108, 2048, 32, 163 * kKiB, 164 * kKiB, 40 * kMiB),
      make("sm_86", "RTX 3090 class", 82, 1536, 16, 99 * kKiB, 100 * kKiB, 6 * kMiB),
      make("sm_89", "RTX 4090 class", 128, 1536, 24, 99 * kKiB, 100 * kKiB, 72 * kMiB),
      make("sm_90", "H100 SXM", 132, 2048, 32, 227 * kKiB, 228 * kKiB, 50 * kMiB),
  };
}

} // namespace

absl::StatusOr<NvidiaDeviceLimits> nvidiaPreset(std::string_view arch) {
  for (NvidiaDeviceLimits &l : presets())
    if (l.arch == arch)
      return l;
  return absl::InvalidArgumentError(strCat("unknown NVIDIA target '", arch,
                                           "'; known: ", absl::StrJoin(nvidiaPresetNames(), ", ")));
}

std::vector<std::string> nvidiaPresetNames() {
  std::vector<std::string> names;
  for (const NvidiaDeviceLimits &l : presets())
    names.push_back(l.arch);
  return names;
}

namespace {

/// TargetDescription::elementsPerLane on NVIDIA GPUs.
constexpr int64_t kElementsPerLane = 8;

} // namespace

TargetDescription nvidiaTargetDescription(const NvidiaDeviceLimits &limits, int64_t lanesPerBlock) {
  TargetDescription t;
  t.name = limits.arch;
  lanesPerBlock = std::clamp(lanesPerBlock / limits.warpWidth * limits.warpWidth, limits.warpWidth,
                             limits.maxThreadsPerBlock);
  t.lanesPerBlock = lanesPerBlock;
  t.warpWidth = limits.warpWidth;
  // Blocks of this size that fit an SM by threads and by its block limit;
  // each may take an equal share of the SM's shared memory.
  int64_t blocksPerSM =
      std::max<int64_t>(1, std::min(limits.maxBlocksPerSM, limits.maxThreadsPerSM / lanesPerBlock));
  t.blockBufferBytes = std::min(limits.sharedBytesPerBlock, limits.sharedBytesPerSM / blocksPerSM);
  t.parallelUnits = limits.smCount * blocksPerSM;
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
