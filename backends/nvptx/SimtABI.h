#ifndef XSTITCH_BACKENDS_NVPTX_SIMTABI_H
#define XSTITCH_BACKENDS_NVPTX_SIMTABI_H

// The contract between the NVPTX simulation's lowering (SimtLowering.h) and
// its lane scheduler (runtime/simt/LaneScheduler.h): how a kernel emitted for
// NVIDIA GPUs runs on the host, one block's threads at a time.
//
// The lowering turns every NVPTX kernel SYMBOL into
//   void SYMBOL.lane(void *const *buffers, int64_t *dims,
//                    int64_t blockBegin, SimtLaneContext *lane);
// (one thread of one block: tid.x, ntid.x and ctaid.x are read from `lane`,
// bar.sync and shfl.sync call its entry points, shared memory is
// `lane->shared`), and adds a CPU kernel (KernelABI.h) under the plan's
// symbol that calls
//   kSimtRunBlocksSymbol(SYMBOL.lane, buffers, dims, begin, end, lanes,
//                        sharedBytes)
// to run blocks [begin, end) with `lanes` threads each and a shared memory
// of `sharedBytes` per block. A cooperative kernel (ir/HostPlan.h) calls
// kSimtRunGridSymbol with the same arguments instead: a few blocks run at
// once, striding over the grid's end - begin blocks, and its grid barriers
// (calls of kGridBarrierFunction, NvptxTarget.h) call the context's
// gridBarrier. The CPU device resolves both symbols to the scheduler when it
// loads the object (CpuDeviceOptions::hostSymbols).

#include <cstdint>

namespace xs {

struct SimtLaneContext;

using SimtBarrierFn = void (*)(SimtLaneContext *lane);
/// shfl.sync.bfly.b32: the value of lane (laneId ^ laneMask) of the warp.
using SimtShuffleXorFn = int32_t (*)(SimtLaneContext *lane, int32_t memberMask, int32_t value,
                                     int32_t laneMask, int32_t clamp);

/// One thread's view of the block it runs in. The field order is the
/// lowering's: it loads them by index (SimtLaneField).
struct SimtLaneContext {
  int64_t laneId;    // tid.x
  int64_t laneCount; // ntid.x
  int64_t blockId;   // ctaid.x
  void *shared;      // the block's shared memory
  SimtBarrierFn barrier;
  SimtShuffleXorFn shuffleXor;
  void *scheduler;    // the scheduler's own state
  int64_t blockCount; // nctaid.x
  SimtBarrierFn gridBarrier;
};

enum SimtLaneField : unsigned {
  kSimtLaneId,
  kSimtLaneCount,
  kSimtBlockId,
  kSimtShared,
  kSimtBarrier,
  kSimtShuffleXor,
  kSimtScheduler,
  kSimtBlockCount,
  kSimtGridBarrier,
};

using SimtLaneFn = void (*)(void *const *buffers, int64_t *dims, int64_t blockBegin,
                            SimtLaneContext *lane);
using SimtRunBlocksFn = void (*)(SimtLaneFn lane, void *const *buffers, int64_t *dims,
                                 int64_t begin, int64_t end, int64_t lanes, int64_t sharedBytes);

inline constexpr const char *kSimtRunBlocksSymbol = "xs_simt_run_blocks";
inline constexpr const char *kSimtRunGridSymbol = "xs_simt_run_grid";
inline constexpr const char *kSimtLaneSuffix = ".lane";

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_SIMTABI_H
