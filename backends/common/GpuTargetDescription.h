#ifndef XSTITCH_BACKENDS_COMMON_GPUTARGETDESCRIPTION_H
#define XSTITCH_BACKENDS_COMMON_GPUTARGETDESCRIPTION_H

// Planning's view of any GPU, from the limits every vendor states the same
// way: threads of a warp (wavefront), of a block (workgroup) and of a
// multiprocessor (SM, CU), resident blocks, and the shared memory (LDS) a
// block and a multiprocessor have. The NVIDIA and AMDGPU backends describe
// their GPUs through it, so the planner's lanes, packing and block buffers
// follow one rule whatever the vendor.

#include <cstdint>
#include <string>

#include "transforms/TargetDescription.h"

namespace xs {

struct GpuOccupancyLimits {
  std::string name;            // TargetDescription::name: "sm_90", "gfx942"
  int64_t multiprocessors = 0; // SMs or CUs
  int64_t warpWidth = 32;      // threads of a warp or wavefront
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxThreadsPerMultiprocessor = 0;
  int64_t maxBlocksPerMultiprocessor = 0;
  int64_t sharedBytesPerBlock = 0; // the most one block may use
  int64_t sharedBytesPerMultiprocessor = 0;
};

/// `lanesPerBlock` threads per block (rounded to whole warps, within the
/// limits), block buffers the share of shared memory each resident block of
/// that size may take, parallel units = multiprocessors x resident blocks,
/// 16-byte vector accesses, a grid barrier and staged transpose tiles.
TargetDescription gpuTargetDescription(const GpuOccupancyLimits &limits, int64_t lanesPerBlock);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_GPUTARGETDESCRIPTION_H
