#ifndef XSTITCH_TRANSFORMS_TARGETDESCRIPTION_H
#define XSTITCH_TRANSFORMS_TARGETDESCRIPTION_H

// The facts about a target that planning needs. Plans take every parameter
// from here, never from constants in the planner. Backends provide one (the
// x86 backend reads the host CPU).

#include <algorithm>
#include <cstdint>
#include <string>

namespace xs {

struct TargetDescription {
  std::string name;             // "x86-64 skylake-avx512", "sm_90", ...
  int64_t lanesPerBlock = 1;    // threads per block (GPU) or SIMD lanes a task uses (CPU)
  int64_t warpWidth = 1;        // 32 NVIDIA, 64 AMD CDNA, SIMD width in elements of f32 on CPU
  int64_t blockBufferBytes = 0; // per-block scratch: shared memory, or the L2 share of a task
  int64_t parallelUnits = 1;    // SMs x resident blocks, or CPU worker threads
  int64_t vectorBytes = 16;     // widest vector load/store
  /// Elements a block should cover at least: on CPU so that scheduling
  /// costs stay small against the work (TBB grain), on GPUs a full block's
  /// lanes with elementsPerLane each (the chunk a split row gives a block).
  int64_t minElementsPerBlock = 1;
  /// GPUs (AStitch's adaptive thread mapping): a variant's blocks take
  /// enough lanes for elementsPerLane elements each of the longest row
  /// (or chunk) a block works on, in whole warps, at most lanesPerBlock:
  /// short rows get a warp, long ones the whole block, and blocks pack rows
  /// a warp covers a warp each (ThreadMapping::rowLanes). Column reductions
  /// take a lane per column of a block's strip; Generic mappings lanes for
  /// the elements a result reduces.
  /// 0: every block has lanesPerBlock lanes (CPU).
  int64_t elementsPerLane = 0;
  /// Elements a block packs short rows into, at most (never more than
  /// minElementsPerBlock). Every stage of a stitched block reads the block's
  /// rows again: on x86 small row tiles stay close to the core (softmax over
  /// rows of 32 f32 ran in about 0.72 of the time with tiles of up to 256
  /// elements as with tiles of 16384). 1: one row per block.
  int64_t packedRowElements = 1;
  /// Rows of a constant length above packedRowElements and at most this
  /// many elements are packed two to a block (0: never). Each stage of a
  /// stitched row kernel ends in a chain it waits for (a horizontal sum, a
  /// division, a broadcast); with two rows per block a core works on the
  /// other row's stage meanwhile. On Zen 5 the softmax kernel over f16 rows
  /// of 1024 took 125 instead of 156 ns a row in cache (with the widened
  /// rows kept, keepsWidenedHalves); rows of 32 packed to 2048 elements
  /// instead of 256 ran 1.1 to 1.3 times slower from memory (the two builds
  /// in turns, either first), so only the pairs change, not packedRowElements.
  int64_t pairedRowElements = 0;
  /// A block may keep a tile in the block's tile of a result it will
  /// overwrite (PlanBuffer::inResult): true where a result's memory is as
  /// close to the core as block scratch (CPU caches).
  bool resultTilesAsBlockBuffers = false;
  /// Tiles bounded by this many bytes stay block buffers of their own even
  /// where a result could hold them: a small tile stays in L1 either way,
  /// and a result the kernel never reads can be written with streaming
  /// stores (softmax over rows of 32 f32: 0.85 to 0.94 of the time).
  int64_t resultTileMinBytes = 0;
  /// Vertical packing (KernelVariant::blocksPerTask): tasks per parallel
  /// unit a grid is packed into, enough to balance uneven blocks without
  /// paying a task's overhead per block; 0: one block per task.
  int64_t tasksPerUnit = 0;
  /// GPUs: a variant of several phases is also compiled into one
  /// cooperative kernel whose blocks wait for each other between phases
  /// (HostLaunchVariant::cooperative), launched where its blocks fit on the
  /// GPU at once instead of one launch per phase.
  bool gridBarrier = false;
  /// GPUs: a transpose that swaps the last two dims stages each block's
  /// tile in a block buffer (PlanBuffer::staging), read along the input's
  /// rows and written along the result's, so that both are coalesced; CPUs
  /// move tiles through registers instead (backends/common/TransposeTiles.h).
  bool stagesTransposeTiles = false;
  /// Kernels run with subnormal float results flushed to zero (FTZ/DAZ on
  /// x86): math may then skip the steps that only serve gradual underflow.
  bool flushesSubnormals = false;
  /// A cast from f16 or bf16 to f32 that later stages of a block read again
  /// is kept in a block buffer, like an expensive op, instead of being
  /// converted again from the input (KernelStitcher::shareSubDominants): on
  /// x86 the conversion (VCVTPH2PS, or bf16's widening shifts) takes pipes
  /// the exp's fmas need. Softmax over rows of 1024 and LayerNorm over rows
  /// of 768 from memory on Zen 5: f16 1.34 -> 1.24 and 0.81 -> 0.61 ms with
  /// the rows paired too; bf16 0.77 to 0.93 and 0.79 to 0.82 of the time
  /// of paired rows alone.
  bool keepsWidenedHalves = false;
  /// Statistics over the middle axis of [B, C, N] whose batch slabs take
  /// several blocks are stitched a column strip at a time: a block reduces
  /// its batch index's strip and normalizes it, every edge Regional
  /// (StitchStrips.cpp). ConvNeXt's channels-first LayerNorm over
  /// f32[32, 96, 56*56] on Zen 5 (two threads): 3.2 to 3.4 ms in four phases,
  /// 1.9 ms in strips. Off on GPUs: a block per batch index's strip is 32
  /// blocks at that shape, the normalization's writes included, where the
  /// four phases' last one spreads them over hundreds.
  bool stitchesColumnStrips = false;
};

/// A fixed CPU description (8 f32 lanes, 2 workers, 256 KiB per task) for
/// golden tests and tools that plan without a backend, so printed plans are
/// the same on every machine. It packs rows as x86 does but does not pair
/// them (pairedRowElements 0): its golden plans show each row's own block;
/// tests/backends/x86 check the pairing in x86 plans.
TargetDescription genericCpuTarget();

/// GPUs: lanes of a row group of a column reduction whose block strip is
/// `stripColumns` wide (columnRowGroups): the strip rounded up to a power of
/// two.
inline int64_t columnGroupLanes(int64_t stripColumns) {
  int64_t lanes = 1;
  while (lanes < stripColumns)
    lanes *= 2;
  return lanes;
}

/// GPUs: a column reduction whose blocks take strips narrower than a warp
/// splits its rows over groups of columnGroupLanes() lanes, each group
/// accumulating its share of the rows into accumulators of its own, merged
/// in group order at the end (bias_grad's strips of 4 columns: 64 groups in
/// a block of 256 lanes, instead of 4 busy lanes walking every row). The
/// groups a block of lanesPerBlock lanes has; 1 on CPUs, for strips of a
/// warp or more and for whole rows of columns (stripColumns 0).
inline int64_t columnRowGroups(int64_t stripColumns, const TargetDescription &target) {
  if (target.elementsPerLane <= 0 || stripColumns <= 0 || stripColumns >= target.warpWidth)
    return 1;
  return std::max<int64_t>(target.lanesPerBlock / columnGroupLanes(stripColumns), 1);
}

/// The columns a block's tile of column-reduction accumulators holds when
/// its strip takes every column (stripColumns 0): the column count may be
/// symbolic, and a tile this wide already reads whole cache lines.
constexpr int64_t kWholeRowColumnTile = 4096;

/// The columns of a column reduction's accumulator tile (one accumulator per
/// column for each of its columnRowGroups): the block's strip, or
/// kWholeRowColumnTile for whole rows, capped where the tiles' `stateBytes`
/// (every state of every reduction the loops carry) would pass the block
/// buffer budget. The emitter allocates this; the planner bounds a block's
/// shared memory by it (HostLaunchVariant::phaseBlockBufferBytes).
inline int64_t columnAccumulatorTile(int64_t stripColumns, int64_t stateBytes, int64_t rowGroups,
                                     const TargetDescription &target) {
  int64_t capacity =
      std::max<int64_t>(target.blockBufferBytes / std::max<int64_t>(stateBytes * rowGroups, 1), 1);
  return std::min(stripColumns > 0 ? stripColumns : kWholeRowColumnTile, capacity);
}

} // namespace xs

#endif // XSTITCH_TRANSFORMS_TARGETDESCRIPTION_H
