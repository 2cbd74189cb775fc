#ifndef XSTITCH_RUNTIME_SIMT_LANESCHEDULER_H
#define XSTITCH_RUNTIME_SIMT_LANESCHEDULER_H

// Runs GPU kernels lowered for the host (backends/common/SimtABI.h) block by
// block: each of a block's threads is a coroutine with a stack of its own, run
// on the calling thread until it reaches a block barrier, a cross-lane
// shuffle or its end. A barrier opens when every thread of the block that has
// not finished waits at it; a shuffle completes when every thread of the warp
// (32 on NVIDIA, a wavefront of 64 or 32 on AMD) reaches it. Threads
// run one after another between those points, so a kernel that reads shared
// memory another thread writes without a barrier between sees stale data
// here, as a GPU may. Shared memory starts each block filled with 0xff bytes
// (NaN, -1), so that reading what no thread wrote shows.
//
// A kernel whose threads cannot all reach the same point (a barrier some
// threads skip, a shuffle not every thread of a warp joins) would hang or be
// undefined on a GPU: here it is a bug in xstitch's code generation, reported
// on stderr with the block and the threads' states, and the process aborts
// (also blocks of a cooperative launch that do not all reach a grid barrier);
// so is a kernel that writes past the shared memory its launch gives it
// (a GPU faults), seen in guard bytes after it.

#include <cstdint>

#include "backends/common/SimtABI.h"

namespace xs {

/// Runs blocks [begin, end) of `lane` with `lanes` threads each in warps of
/// `warpWidth`, and `sharedBytes` of shared memory per block
/// (SimtRunBlocksFn). Several threads may run blocks at once; each has its
/// own scheduler.
void runSimtBlocks(SimtLaneFn lane, void *const *buffers, int64_t *dims, int64_t begin, int64_t end,
                   int64_t lanes, int64_t sharedBytes, int64_t warpWidth);

/// Blocks a cooperative launch runs at once, at most: few, so that the
/// kernels' grid-stride loops give each several of a grid's blocks.
inline constexpr int64_t kSimtResidentBlocks = 3;

/// Runs a cooperative kernel (SimtABI.h) over a grid of end - begin plan
/// blocks: min(that, kSimtResidentBlocks) blocks of `lanes` threads run
/// together on the calling thread, ctaid.x 0, 1, ... of as many; a grid
/// barrier opens when every thread of every block waits at it.
void runSimtGrid(SimtLaneFn lane, void *const *buffers, int64_t *dims, int64_t begin, int64_t end,
                 int64_t lanes, int64_t sharedBytes, int64_t warpWidth);

} // namespace xs

#endif // XSTITCH_RUNTIME_SIMT_LANESCHEDULER_H
