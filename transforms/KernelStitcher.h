#ifndef XSTITCH_TRANSFORMS_KERNELSTITCHER_H
#define XSTITCH_TRANSFORMS_KERNELSTITCHER_H

// The stitcher of one kernel, shared by its files (not a public interface):
// StitchPlanner.cpp chooses dominants and groups, aligns them with the main
// rows, picks edge schemes, phases and stages and fits variants to the
// block-buffer budget; StitchBuffers.cpp decides where values live (tiles in
// results, sub-dominants' shared tiles) and estimates the bytes a variant
// moves; StitchStrips.cpp lets groups follow a batch-column reduction's
// column strips.

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "transforms/PlanInternal.h"
#include "transforms/StitchPlanner.h"

namespace xs::plan {

/// Uses an inlined op may have (counted through other inlined ops) before
/// it becomes a dominant: recomputing it more often costs more than a
/// buffer, and deep chains of shared ops would grow the code exponentially.
inline constexpr int64_t kMaxInlinedUses = 4;
/// The most uses an op the cost model chose to recompute may have: past it,
/// code size would grow too fast.
inline constexpr int64_t kMaxRecomputedUses = 16;
/// A chain of element-wise ops costing at least kMinAmplifiedChainCost
/// (light ops 1, expensive ones kExpensiveOpCost) whose elements are each
/// read for kMinAmplification elements or more of a broadcast or a gather
/// (as its indices), found through transposes, reshapes and gathers' results,
/// is computed once, as a dominant, rather than once per element read. Read through a broadcast
/// that varies along its result's last dim, a chain is recomputed for every element a reader's
/// vector loop reads (not once per row, as values constant along a row can be): there one
/// transcendental function in it is enough (rotary embeddings' cos and sin of [S, D], read for
/// every head).
inline constexpr int64_t kMinAmplifiedChainCost = 6;
inline constexpr int64_t kExpensiveOpCost = 4;
inline constexpr int64_t kMinAmplification = 16;
/// Every symbol's value when the cost model compares two plans' estimates.
inline constexpr int64_t kRepresentativeDim = 4096;
/// The fewest rows per block worth a row of partials: with fewer, the
/// partials (8 bytes per column for float sums) would approach the size of
/// the f32 rows they summarize.
inline constexpr int64_t kMinSplitRows = 8;

inline bool isReduction(const Operation &op) { return op.info().category == OpCategory::Reduce; }
/// Scans are always dominants: each element depends on its whole line.
inline bool isScan(const Operation &op) { return op.info().category == OpCategory::Scan; }

inline std::vector<DimExpr> prefixOf(const std::vector<DimExpr> &shape, size_t n) {
  return {shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(std::min(n, shape.size()))};
}

inline std::vector<DimExpr> suffixFrom(const std::vector<DimExpr> &shape, size_t n) {
  return {shape.begin() + static_cast<std::ptrdiff_t>(std::min(n, shape.size())), shape.end()};
}

/// The largest value of `size` (a tile size: it grows with every symbol)
/// under `predicates`, from bounds of the form `SYMBOL <= C` or `SYMBOL < C`;
/// nullopt when some symbol is unbounded.
std::optional<int64_t> sizeBound(const DimExpr &size, const std::vector<DimPredicate> &predicates);

/// `value` with every symbol at kRepresentativeDim (the cost model's point
/// of comparison); the largest int64 when it does not evaluate.
int64_t representativeValue(const DimExpr &value);

/// A batch-column reduction's operand around its reduced dims: the batch
/// dims before them and the column dims after (StitchStrips.cpp).
struct StripLayout {
  std::vector<DimExpr> batch, cols;
};
StripLayout stripLayout(const Operation &reduction);

/// Plans one kernel body for one choice of values to recompute: run() gives
/// its variants (planStitchedKernel compares the choices).
class KernelStitcher {
public:
  /// `recompute`: values the cost model chose to recompute in every group
  /// that reads them rather than keep in memory.
  KernelStitcher(const Function &body, const TargetDescription &target,
                 const absl::flat_hash_set<const Value *> &recompute)
      : body_(body), target_(target), recompute_(recompute) {}

  StitchedKernel run();

private:
  void chooseDominants();
  /// True for a batch-column reduction whose own mapping gives each batch
  /// index one block with every column ([B, L, C] reduced over L: a block
  /// per b), so that groups over the batch dims can follow its blocks.
  bool ownsWholeBatches(const Operation &dominant) const;
  /// True for a batch-column reduction whose own mapping splits each batch
  /// index's columns into strips, a block each, when another dominant can
  /// follow those blocks (stripMapping) and reads the reduction in place:
  /// the main of a strip variant.
  bool splitsBatchColumns(const Operation &dominant) const;
  /// The mapping with which `dominant` follows the blocks of a batch-column
  /// main over column strips (`layout`, `mainMapping`): a batch-column
  /// reduction over the same batch and columns with strips as wide, or an
  /// element-wise group over [batch..., M..., columns...] with M constant
  /// (M rows and the strip's columns a block); nullopt otherwise.
  std::optional<ThreadMapping> stripMapping(const Operation &dominant, const StripLayout &layout,
                                            const ThreadMapping &mainMapping) const;
  /// True when every read of `producer` by `consumer` is at the consumer's
  /// own batch and column index (any middle index) and the producer has one
  /// row per batch index: its block tile is the strip's columns.
  bool readsStripInPlace(const Operation &consumer, const Operation &producer,
                         const StripLayout &layout) const;
  /// True when `producer`'s result is reached from `from` through inlined ops.
  bool reaches(const Operation &from, const Operation &producer) const;
  /// The row dims of a group aligned with the main mapping's rows `rows`
  /// (their count), or nullopt when its tiles cannot follow the main ones.
  std::optional<size_t> alignedRowDims(const Operation &dominant,
                                       const std::vector<DimExpr> &rows) const;
  /// True when every read of `producer` by `consumer` is at an index whose
  /// first `rowDims` dims are the consumer's row index.
  bool readsRowLocally(const Operation &consumer, const Operation &producer, size_t rowDims) const;
  /// The body result whose block tile can hold `value`'s tile when group
  /// `reader` is the value's only reader (PlanBuffer::inResult): the reader
  /// is element-wise, its dominant is a result of the value's type, none of
  /// its inlined ops is a result, and it reads the value only at the
  /// element it writes; nullptr otherwise.
  const Value *resultHome(const Value *value, size_t reader) const;
  /// Sets PlanBuffer::inResult on the block buffers of `v` whose value has
  /// a resultHome in its only reader, which writes nothing but that result;
  /// a result holds one tile, and tiles bounded by the target's
  /// resultTileMinBytes stay on their own. `claimed` (value -> home) were admitted as
  /// block buffers beyond the budget on the promise of their home and are
  /// placed first.
  void placeTilesInResults(KernelVariant &v,
                           const absl::flat_hash_map<const Value *, const Value *> &claimed) const;
  /// `demoted`: values kept out of block buffers (Global, or recomputed when
  /// they are sub-dominants) to bring the variant within the budget.
  KernelVariant planVariant(const KernelVariant &mainVariant, StitchedKernel &out,
                            const absl::flat_hash_set<const Value *> &demoted) const;
  /// planVariant, demoting the largest block buffer, one at a time, while
  /// the variant's block buffers together exceed the target's budget.
  KernelVariant planWithinBudget(const KernelVariant &mainVariant, StitchedKernel &out) const;
  /// When the catch-all variant leaves a row tile unbounded (rows of any
  /// length) and bounding it lets block buffers keep more values, inserts
  /// before it the same mapping for rows whose f32 tile fits half the block
  /// buffer (softmax over rows of 30000: exp kept for the division).
  void addBoundedVariant(const KernelVariant &catchAll, StitchedKernel &out) const;
  /// The variants to try before `v` where an element-wise group of `v` with
  /// blocks of its own walks rows of symbolic length a row per block (its
  /// own catch-all mapping): the same variant with that group's packed
  /// mappings, each under its own condition on the row length as well
  /// (GroupNorm's normalization over [B, C, H, W] after its statistics: rows
  /// of W = 64, a block each, spent their time on each block's index
  /// arithmetic). Beside the main's catch-all variant and for the first
  /// such group only, to bound the variants.
  std::vector<KernelVariant> packedGroupVariants(const KernelVariant &v) const;
  /// In a variant that splits the main rows into chunks: gives `group` (of
  /// `dominant`, aligned with the main rows) the same chunks, a RowPartial
  /// mapping for a row reduction over those rows, a split element-wise one
  /// otherwise; false when its dominant has neither.
  bool splitAlongRows(const Operation &dominant, const std::vector<DimExpr> &rows,
                      const ThreadMapping &mainMapping, PlanGroup &group) const;
  /// True when group `g` is a column reduction over exactly the main rows
  /// that no other group reads: it can be split over the row blocks.
  bool splitsOverRows(size_t g, const std::vector<DimExpr> &rows,
                      const ThreadMapping &mainMapping) const;
  /// True when a later stage should read `op`'s tile from a block buffer
  /// instead of computing it again: expensive element-wise ops, and f16 or
  /// bf16 widened to f32 where the target keeps those (keepsWidenedHalves).
  bool worthSharing(const Operation &op) const;
  /// Dominant merging: ops worth sharing that a group recomputes after an
  /// earlier group of its phase computed them become sub-dominants of the
  /// earlier group, which keeps their tiles in block buffers.
  /// `claimed`: values admitted beyond the budget because they will live in
  /// a result (value -> that result); each result is promised once.
  void shareSubDominants(KernelVariant &v, const std::vector<std::optional<size_t>> &rowDims,
                         const std::vector<int> &phase, const std::vector<int> &stage,
                         int64_t rowsPerBlock, const absl::flat_hash_set<const Value *> &demoted,
                         absl::flat_hash_map<const Value *, const Value *> &claimed) const;

  /// The cost model: bytes a variant moves through global memory.
  DimExpr estimateBytes(const KernelVariant &v, const std::vector<std::optional<size_t>> &rowDims,
                        const std::vector<int> &phase) const;

  const Function &body_;
  const TargetDescription &target_;
  const absl::flat_hash_set<const Value *> &recompute_;
  std::vector<const Operation *> dominants_; // program order
  absl::flat_hash_map<const Value *, int> groupOf_;
  absl::flat_hash_set<const Value *> results_;
  /// What each group computes and reads, found by walking from its
  /// dominant through the ops it inlines.
  struct GroupInputs {
    std::vector<const Operation *> inlined; // program order
    std::vector<int> reads;                 // groups whose values it reads, ascending
    std::vector<const Value *> params;      // body parameters it reads
  };
  std::vector<GroupInputs> inputs_;
  /// How many groups read each group's dominant.
  std::vector<int> readers_;
  int main_ = -1;
};

} // namespace xs::plan

#endif // XSTITCH_TRANSFORMS_KERNELSTITCHER_H
