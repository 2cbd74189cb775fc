#ifndef XSTITCH_BACKENDS_NVPTX_NVIDIATARGETDESCRIPTION_H
#define XSTITCH_BACKENDS_NVPTX_NVIDIATARGETDESCRIPTION_H

// What planning and the NVPTX backend need to know about an NVIDIA GPU: the
// limits of its compute capability (warp, threads, shared memory, registers,
// resident blocks) and the size of the part (SMs, L2). The CUDA runtime
// queries them from the device it runs on; ahead-of-time compilation takes a
// named preset (`--target=sm_90`), the limits of that architecture on a
// representative part.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "transforms/TargetDescription.h"

namespace xs {

struct NvidiaDeviceLimits {
  std::string arch;       // the PTX target: "sm_90"
  std::string part;       // what the numbers describe: "H100 SXM", a device's name
  int64_t smCount = 0;    // streaming multiprocessors
  int64_t warpWidth = 32; // threads of a warp
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxThreadsPerSM = 0;
  int64_t maxBlocksPerSM = 0;      // resident blocks per SM
  int64_t sharedBytesPerBlock = 0; // the most one block may use (opted in)
  int64_t sharedBytesPerSM = 0;
  int64_t registersPerSM = 65536; // 32-bit registers
  int64_t registersPerBlock = 65536;
  int64_t maxRegistersPerThread = 255;
  int64_t l2Bytes = 0;
};

/// The limits of a named architecture: sm_70 (V100), sm_80 (A100), sm_86
/// (RTX 3090 class), sm_89 (RTX 4090 class), sm_90 (H100 SXM). An unknown
/// name is an InvalidArgument error that lists the known ones.
absl::StatusOr<NvidiaDeviceLimits> nvidiaPreset(std::string_view arch);

/// The names nvidiaPreset() knows, oldest first.
std::vector<std::string> nvidiaPresetNames();

/// Planning's view of the GPU with `lanesPerBlock` threads per block
/// (backends/common/GpuTargetDescription.h).
TargetDescription nvidiaTargetDescription(const NvidiaDeviceLimits &limits,
                                          int64_t lanesPerBlock = 256);

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_NVIDIATARGETDESCRIPTION_H
