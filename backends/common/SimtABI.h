#ifndef XSTITCH_BACKENDS_COMMON_SIMTABI_H
#define XSTITCH_BACKENDS_COMMON_SIMTABI_H

// The contract between the SIMT simulations' lowering (SimtLowering.h) and
// their lane scheduler (runtime/simt/LaneScheduler.h): how a kernel emitted
// for a GPU (NVIDIA or AMD) runs on the host, one block's threads at a time.
//
// The lowering turns every GPU kernel into
//   void SYMBOL.lane(void *const *buffers, int64_t *dims,
//                    int64_t blockBegin, SimtLaneContext *lane);
// (one thread of one block: the thread, block and launch ids and sizes are
// read from `lane`, barriers and cross-lane shuffles call its entry points,
// shared memory (LDS) is `lane->shared`, AMD's dispatch packet is
// `lane->dispatchPacket`), and adds a CPU kernel (KernelABI.h) under the
// plan's symbol that calls
//   kSimtRunBlocksSymbol(SYMBOL.lane, buffers, dims, begin, end, lanes,
//                        sharedBytes, warpWidth)
// to run blocks [begin, end) with `lanes` threads each in warps
// (wavefronts) of `warpWidth`, and a shared memory of `sharedBytes` per
// block. A cooperative kernel (ir/HostPlan.h) calls kSimtRunGridSymbol with
// the same arguments instead: a few blocks run at once, striding over the
// grid's end - begin blocks, and its grid barriers (calls of
// kGridBarrierFunction, SimtTarget.h) call the context's gridBarrier. The
// CPU device resolves both symbols to the scheduler when it loads the
// object (CpuDeviceOptions::hostSymbols).

#include <cstdint>

namespace xs {

struct SimtLaneContext;

using SimtBarrierFn = void (*)(SimtLaneContext *lane);
/// NVIDIA's shfl.sync.bfly.b32: the value of lane (laneId ^ laneMask) of the
/// warp.
using SimtShuffleXorFn = int32_t (*)(SimtLaneContext *lane, int32_t memberMask, int32_t value,
                                     int32_t laneMask, int32_t clamp);
/// AMD's ds_bpermute: the value of lane `sourceLane` (modulo the wavefront)
/// of the wavefront.
using SimtShuffleIndexFn = int32_t (*)(SimtLaneContext *lane, int32_t value, int32_t sourceLane);

/// Byte offsets in the dispatch packet the scheduler gives AMD kernels
/// (hsa_kernel_dispatch_packet_t): workgroup_size_x (u16), grid_size_x (u32,
/// in work-items).
inline constexpr unsigned kSimtPacketWorkgroupSizeX = 4;
inline constexpr unsigned kSimtPacketGridSizeX = 12;
inline constexpr unsigned kSimtPacketBytes = 64;

/// One thread's view of the block it runs in. The field order is the
/// lowering's: it loads them by index (SimtLaneField).
struct SimtLaneContext {
  int64_t laneId;    // tid.x, workitem_id.x
  int64_t laneCount; // ntid.x, workgroup_size_x
  int64_t blockId;   // ctaid.x, workgroup_id.x
  void *shared;      // the block's shared memory
  SimtBarrierFn barrier;
  SimtShuffleXorFn shuffleXor;
  void *scheduler;    // the scheduler's own state
  int64_t blockCount; // nctaid.x
  SimtBarrierFn gridBarrier;
  SimtShuffleIndexFn shuffleIndex;
  void *dispatchPacket; // kSimtPacketBytes
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
  kSimtShuffleIndex,
  kSimtDispatchPacket,
};

using SimtLaneFn = void (*)(void *const *buffers, int64_t *dims, int64_t blockBegin,
                            SimtLaneContext *lane);
using SimtRunBlocksFn = void (*)(SimtLaneFn lane, void *const *buffers, int64_t *dims,
                                 int64_t begin, int64_t end, int64_t lanes, int64_t sharedBytes,
                                 int64_t warpWidth);

inline constexpr const char *kSimtRunBlocksSymbol = "xs_simt_run_blocks";
inline constexpr const char *kSimtRunGridSymbol = "xs_simt_run_grid";
inline constexpr const char *kSimtLaneSuffix = ".lane";

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_SIMTABI_H
