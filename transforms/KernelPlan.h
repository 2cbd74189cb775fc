#ifndef XSTITCH_TRANSFORMS_KERNELPLAN_H
#define XSTITCH_TRANSFORMS_KERNELPLAN_H

// KernelPlan: the target-independent description of one kernel, the contract
// between planning (transforms/) and code generation (backends/). It is a
// printable object with golden tests of its own (`xstitch-opt
// --passes=...,kernel-plan`), separate from the code that applies it.
//
// A kernel computes the ops of its `body` function. Its work is a grid of
// blocks (the count is a dim expression); a block owns a tile of a group's
// iteration space, collapsed to rows x cols; inside a block, stages run over
// the block's lanes and end with a block barrier; phases end with a grid
// barrier. Values a later stage or phase reads live in buffers whose level is
// register, block (per-block scratch) or global. A kernel has one or more
// variants chosen at run time by predicates on the dims; the last variant's
// predicate is always true.
//
// Planning one op per kernel (the unfused baseline) uses one group, one phase
// and one stage; stitching (StitchPlanner.h) fills the rest of the structure.
//
// Contract between planner and emitter for buffers:
//  - Global: the value is written to global memory by its group and read from
//    there by groups of later phases. A body result uses its result buffer;
//    any other value a scratch buffer (KernelPlan::scratch).
//  - Block: the value's tile written by one block stays in per-block scratch
//    and is read by later stages of the same phase in the same block; the
//    readers read only elements the block wrote (the block-locality check).
//    A grid barrier ends a block buffer's life.
//  - Register: recomputed where it is read (the Local scheme).
//  - Block in a result (PlanBuffer::inResult): as Block, but the tile is
//    written at its elements' own positions in the result's global buffer,
//    which the reader then overwrites element by element.
// A group writes every value of its `ops` that is a body result or has a
// Block or Global buffer; such values have the shape of the group's dominant
// (or, in a RowReduce group, of the reduction's operand).

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "ir/DimPredicate.h"
#include "ir/IR.h"

namespace xs {

enum class BufferLevel : uint8_t { Register, Block, Global };
std::string_view bufferLevelName(BufferLevel level);

/// How a group's lanes cover its iteration space.
enum class MappingKind : uint8_t {
  /// Every element of the dominant's result independently; rows x cols is
  /// the result with its last dim as cols (rank 0: 1 x 1).
  Elementwise,
  /// Reduction over the trailing dims: rows = kept elements, cols = reduced.
  RowReduce,
  /// Reduction over the leading dims: rows = reduced, cols = kept elements.
  ColumnReduce,
  /// Reduction over a contiguous middle run of dims [batch, reduced, kept]:
  /// a column reduction per batch index; `batch` is the outer extent.
  BatchColumnReduce,
  /// Anything else (non-contiguous reduced dims, argmax over a middle dim):
  /// each output element loops over its reduced indices.
  Generic,
  /// A column reduction split over the row blocks of the kernel's main
  /// mapping (AStitch's task splitting): block b reduces its rowsPerBlock
  /// rows of every column into partial b (KernelPlan::partials), in the
  /// phase where the rows' producers keep their tiles in block buffers.
  ColumnPartial,
  /// Finishes a ColumnPartial group in a later phase: rows = the partials
  /// (the partial group's block count), cols = kept elements; a block owns a
  /// strip of colsPerBlock columns (0: all).
  ColumnCombine,
  /// A row reduction with few, long rows split over blocks (task splitting
  /// of rows): block b reduces chunk b % chunks (colsPerBlock columns) of
  /// row b / chunks into partial [row, chunk] (KernelPlan::partials).
  RowPartial,
  /// Finishes a RowPartial group in a later phase: rows = the reduction's
  /// rows, cols = chunks per row; block b combines rows [b*rowsPerBlock, ...).
  RowCombine,
  /// A scan (cumsum) along dim d of its result: rows = the dims before d,
  /// cols = the rest (the scanned dim and the dims after it), whole rows per
  /// block as Elementwise lays them out; colsPerBlock > 0 (few rows): a
  /// block takes a strip of that many of the columns after d instead. Each
  /// line (the elements along d at one index of the other dims) is walked
  /// once, in the scan's order, by one lane.
  Scan,
};
std::string_view mappingKindName(MappingKind kind);
/// True for mappings whose blocks own strips of columns (no rows per block).
bool isColumnMajor(MappingKind kind);
/// True for the groups that write partial states instead of their reduction.
bool isPartial(MappingKind kind);
/// True for the mappings that read or write partial states.
bool usesPartials(MappingKind kind);

/// The thread mapping of a group: AStitch's adaptive mapping parameters.
struct ThreadMapping {
  MappingKind kind = MappingKind::Elementwise;
  DimExpr batch = DimExpr(1); // BatchColumnReduce only
  DimExpr rows;               // see MappingKind
  DimExpr cols;
  /// Horizontal packing: rows one block handles (Elementwise, RowReduce).
  int64_t rowsPerBlock = 1;
  /// Columns one block handles; 0 means the whole row (no splitting).
  int64_t colsPerBlock = 0;
  int64_t lanes = 1; // lanes per block (from the Target description)
  /// GPUs, horizontal packing (Elementwise, RowReduce): a block of several
  /// rows gives each a warp of rowLanes lanes. The block's lanes form
  /// lanes / rowLanes row groups, group g taking rows g, g + groups, ...
  /// of the block's; a row's lanes split its columns and merge within their
  /// warp. 1 (Generic): each lane takes whole results; (Scan) each lane
  /// walks whole lines. A warp (Scan, a cumsum along the last dim): each
  /// warp walks whole lines, a tile of adjacent elements at a time. 0: all
  /// the block's lanes work on each row in turn.
  int64_t rowLanes = 0;
  int64_t vectorWidth = 1; // elements per lane access
  /// Elementwise blocks of rowsPerBlock x colsPerBlock: consecutive blocks
  /// take the next rows of the same columns instead of the next columns of
  /// the same rows. CPU transposes that move the last dim: a thread's
  /// consecutive blocks then read the same input rows, each input page read
  /// whole while it is in cache (1.3 to 1.5 times the speed of the
  /// other order). Only in kernels of one group (the others' blocks would
  /// not match).
  bool rowBlocksFirst = false;
};

/// A dominant op and the ops computed in its iteration space (for one op per
/// kernel: just the dominant). Ops are results of the kernel body.
struct PlanGroup {
  const Operation *dominant = nullptr;
  std::vector<const Operation *> ops; // in program order
  ThreadMapping mapping;
  /// Blocks the mapping needs. When it is not the variant's grid, the grid's
  /// blocks spread = max(grid / blocks, 1) apart take the group's blocks:
  /// grid block s*spread runs group blocks s, s + grid/spread, ...
  DimExpr blocks;
};

/// A stage runs some groups over the block's lanes, then a block barrier.
struct PlanStage {
  std::vector<int> groups; // indices into KernelVariant::groups
};

/// A phase is a list of stages, then a grid barrier (except the last phase).
struct PlanPhase {
  std::vector<PlanStage> stages;
};

/// A value kept between stages or phases.
struct PlanBuffer {
  const Value *value = nullptr; // a value of the kernel body
  BufferLevel level = BufferLevel::Register;
  DimExpr elements; // per block for Block level, in total for Global
  /// A column reduction's accumulators (allocated by its own loops), not a
  /// tile of the value.
  bool accumulators = false;
  /// The per-block partials of a ColumnPartial group (KernelPlan::partials),
  /// not the value itself.
  bool partials = false;
  /// Block level only: the tile lives in the block's own tile of this body
  /// result instead of per-block scratch (AStitch's reuse of a result's
  /// memory). The result's group is the tile's only reader and reads each
  /// element where it then writes the result's, so nothing reads the tile
  /// after it is overwritten; the tile takes no block-buffer space and needs
  /// no bound on its size.
  const Value *inResult = nullptr;
  /// Block level only: a transpose's staging tile (allocated by its own
  /// loops, TargetDescription::stagesTransposeTiles): the block reads its
  /// input tile into it along the input's rows and writes it out along the
  /// result's, not a tile of the value.
  bool staging = false;
};

/// For a transpose that moves one operand dim k to the end and keeps the
/// others in order (perm [0, ..., k-1, k+1, ..., r-1, k]: a 2-D transpose
/// of [J, I] blocks, I the dims after k collapsed, as attention's K^T
/// [B, S, H, D] -> [B, H, D, S]), the result dim where I begins (k); nullopt
/// for any other op.
std::optional<size_t> transposedBlockStart(const Operation &op);

/// The element type whose vectors a group with this dominant streams: a
/// reduction's operand, any other op's result; a 16-bit float instead where
/// the values it computes from at its own positions (through element-wise
/// ops and casts, not broadcasts) are stored as f16 or bf16, as AMP graphs
/// cast their rows to f32 and back. The group's vectors then hold as many
/// elements as one register of 16-bit floats.
ElementType streamedElementType(const Operation &dominant);

/// The type a column reduction accumulates in: float sums in f64 (a column
/// sum adds every row into one accumulator, and f32 rounding over tens of
/// thousands of rows with cancellation drifts by 1e-4 of the rows' scale),
/// everything else in its element type.
ElementType columnAccumulationType(const Operation &reduction);

/// Partial states of a split reduction: `blocks` x `cols` elements of the
/// reduction's accumulation type, in global memory. A split column
/// reduction has one row per row block and one column per kept column; a
/// split row reduction one row per kept row and one column per chunk.
struct PlanPartials {
  const Value *reduction = nullptr;
  ElementType type = ElementType::F32;
  /// Column splits: the most blocks any variant splits the rows into.
  DimExpr blocks;
  DimExpr cols;
};

/// How a value crosses from the group that computes it to a group that
/// reads it (AStitch's schemes; Local is not an edge: a Local value is
/// recomputed inside every group that reads it, and listed in its ops).
enum class StitchScheme : uint8_t { Regional, Global };
std::string_view stitchSchemeName(StitchScheme scheme);

struct PlanEdge {
  const Value *value = nullptr;
  int producer = -1; // group indices
  int consumer = -1;
  StitchScheme scheme = StitchScheme::Global;
};

struct KernelVariant {
  std::vector<DimPredicate> predicates; // empty: always applies
  DimExpr grid;                         // number of blocks
  std::vector<PlanGroup> groups;
  std::vector<PlanPhase> phases;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanEdge> edges;
  /// The cost model's estimate of the bytes this variant moves through
  /// global memory (each group's reads, every write); empty when the
  /// planner did not estimate it (one op per kernel: KernelPlan::minimumBytes).
  DimExpr estimatedBytes;
  /// Vertical packing: consecutive grid blocks one task runs, one after
  /// another (on x86 a task is a worker's range of blocks). A grid of many
  /// small blocks is packed into about TargetDescription::tasksPerUnit
  /// tasks per parallel unit.
  DimExpr blocksPerTask = DimExpr(1);

  /// Whether some group runs its own block count (PlanGroup::blocks), its
  /// blocks strided over the grid's (HostLaunchVariant::ownBlockGroups).
  bool hasOwnBlockGroups() const {
    return std::any_of(groups.begin(), groups.end(),
                       [&](const PlanGroup &g) { return g.blocks != grid; });
  }
};

/// The lanes every block of a variant runs (HostLaunchVariant::lanes): its
/// widest group's; narrower groups leave the rest idle.
int64_t blockLanes(const KernelVariant &variant);

struct KernelPlan {
  /// Unique within a program: `k<index>_<dominant mnemonic>`; backends derive
  /// symbol names from it (`<name>.v<variant>`).
  std::string name;
  /// The ops of the kernel as a function: parameters are the global tensors
  /// it reads (named after the host function's values), results the tensors
  /// it writes. Splat constants feeding it are copied in as ops.
  std::unique_ptr<Function> body;
  std::vector<KernelVariant> variants;
  /// Body values that some variant keeps in global memory and that are not
  /// results: kernel arguments after the results, sized as the value.
  std::vector<const Value *> scratch;
  /// Partials of split column reductions: kernel arguments after scratch.
  std::vector<PlanPartials> partials;
  /// Bytes the kernel must read and write at least (each input and output
  /// once), as a dim expression; the cost model and reports use it.
  DimExpr minimumBytes;
  /// The name of an earlier kernel of the program whose code this one runs
  /// (their kernelCodeKey() is the same: bert_layer's two skip-LayerNorms);
  /// empty when it has code of its own. Backends compile only kernels of
  /// their own code; the host plan launches the earlier kernel's symbols.
  std::string codeOf;
};

/// What determines a kernel's generated code: its printed plan with the
/// kernel's name left out and value names replaced by their order of first
/// appearance. Kernels with the same key compile to the same code, since
/// arguments are passed by position and dims by symbol name.
std::string kernelCodeKey(const KernelPlan &plan);

/// The text form used by golden tests:
///   kernel @k0_add(%a: f32[N, 768], %b: f32[N, 768]) -> (%y: f32[N, 768]) {
///     body { ... the body function's ops ... }
///     variant 0 when cols <= 64 { grid ceil(N/64) ... }
///   }
/// A kernel that runs another's code says so after its ops (`code of @k3_add`).
std::string printKernelPlan(const KernelPlan &plan);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_KERNELPLAN_H
