#include "backends/amdgpu/AmdgpuTargetDescription.h"

#include "absl/strings/str_join.h"
#include "backends/common/GpuTargetDescription.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;

/// From AMD's CDNA2, CDNA3 and RDNA3 instruction set and hardware guides:
/// CDNA CUs have four SIMDs of 8 wave64 slots (2048 threads), an RDNA3 CU two
/// SIMDs of 16 wave32 slots (1024 threads); a workgroup allocates at most
/// 64 KiB of LDS, which is a CDNA CU's whole LDS and half an RDNA3 workgroup
/// processor's (two CUs).
std::vector<AmdgpuDeviceLimits> presets() {
  auto make = [](std::string arch, std::string part, int64_t cus, int64_t wave,
                 int64_t threadsPerCU, int64_t l2) {
    AmdgpuDeviceLimits l;
    l.arch = std::move(arch);
    l.part = std::move(part);
    l.computeUnits = cus;
    l.waveWidth = wave;
    l.maxThreadsPerCU = threadsPerCU;
    l.maxBlocksPerCU = 32;
    l.ldsBytesPerBlock = 64 * kKiB;
    l.ldsBytesPerCU = 64 * kKiB;
    l.l2Bytes = l2;
    return l;
  };
  return {
      make("gfx90a", "MI250X die", 110, 64, 2048, 8 * kMiB),
      make("gfx942", "MI300X", 304, 64, 2048, 32 * kMiB),
      make("gfx1100", "RX 7900 XTX", 96, 32, 1024, 6 * kMiB),
  };
}

} // namespace

absl::StatusOr<AmdgpuDeviceLimits> amdgpuPreset(std::string_view arch) {
  for (AmdgpuDeviceLimits &l : presets())
    if (l.arch == arch)
      return l;
  return absl::InvalidArgumentError(strCat("unknown AMD GPU target '", arch,
                                           "'; known: ", absl::StrJoin(amdgpuPresetNames(), ", ")));
}

std::vector<std::string> amdgpuPresetNames() {
  std::vector<std::string> names;
  for (const AmdgpuDeviceLimits &l : presets())
    names.push_back(l.arch);
  return names;
}

TargetDescription amdgpuTargetDescription(const AmdgpuDeviceLimits &limits, int64_t lanesPerBlock) {
  return gpuTargetDescription(
      GpuOccupancyLimits{.name = limits.arch,
                         .multiprocessors = limits.computeUnits,
                         .warpWidth = limits.waveWidth,
                         .maxThreadsPerBlock = limits.maxThreadsPerBlock,
                         .maxThreadsPerMultiprocessor = limits.maxThreadsPerCU,
                         .maxBlocksPerMultiprocessor = limits.maxBlocksPerCU,
                         .sharedBytesPerBlock = limits.ldsBytesPerBlock,
                         .sharedBytesPerMultiprocessor = limits.ldsBytesPerCU},
      lanesPerBlock);
}

} // namespace xs
