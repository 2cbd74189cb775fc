#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGETDESCRIPTION_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGETDESCRIPTION_H

// What planning and the AMDGPU backend need to know about an AMD GPU: its
// architecture (the gfx target LLVM compiles for), wavefront width (64 on
// CDNA, 32 on RDNA), the limits of a workgroup and a compute unit (threads,
// resident workgroups, LDS) and the size of the part (CUs, L2). Ahead-of-time
// compilation takes a named preset (`--target=gfx942`), the limits of that
// architecture on a representative part.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "transforms/TargetDescription.h"

namespace xs {

struct AmdgpuDeviceLimits {
  std::string arch; // the LLVM processor: "gfx942"
  std::string part; // what the numbers describe: "MI300X"
  int64_t computeUnits = 0;
  int64_t waveWidth = 64; // threads of a wavefront
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxThreadsPerCU = 0;
  int64_t maxBlocksPerCU = 0;   // resident workgroups per CU
  int64_t ldsBytesPerBlock = 0; // the most LDS one workgroup may allocate
  int64_t ldsBytesPerCU = 0;
  int64_t l2Bytes = 0;
};

/// The limits of a named architecture: gfx90a (MI250X, one of its dies),
/// gfx942 (MI300X), gfx1100 (RX 7900 XTX, wave32). An unknown name is an
/// InvalidArgument error that lists the known ones.
absl::StatusOr<AmdgpuDeviceLimits> amdgpuPreset(std::string_view arch);

/// The names amdgpuPreset() knows, oldest first.
std::vector<std::string> amdgpuPresetNames();

/// Planning's view of the GPU with `lanesPerBlock` threads per workgroup
/// (backends/common/GpuTargetDescription.h): lanes, packing and reductions
/// follow its wavefront width.
TargetDescription amdgpuTargetDescription(const AmdgpuDeviceLimits &limits,
                                          int64_t lanesPerBlock = 256);

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUTARGETDESCRIPTION_H
