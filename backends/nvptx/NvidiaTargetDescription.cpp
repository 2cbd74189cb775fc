#include "backends/nvptx/NvidiaTargetDescription.h"

#include "absl/strings/str_join.h"
#include "backends/common/GpuTargetDescription.h"
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

TargetDescription nvidiaTargetDescription(const NvidiaDeviceLimits &limits, int64_t lanesPerBlock) {
  return gpuTargetDescription(
      GpuOccupancyLimits{.name = limits.arch,
                         .multiprocessors = limits.smCount,
                         .warpWidth = limits.warpWidth,
                         .maxThreadsPerBlock = limits.maxThreadsPerBlock,
                         .maxThreadsPerMultiprocessor = limits.maxThreadsPerSM,
                         .maxBlocksPerMultiprocessor = limits.maxBlocksPerSM,
                         .sharedBytesPerBlock = limits.sharedBytesPerBlock,
                         .sharedBytesPerMultiprocessor = limits.sharedBytesPerSM},
      lanesPerBlock);
}

} // namespace xs
