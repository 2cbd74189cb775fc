#ifndef XSTITCH_IR_HOSTPLAN_H
#define XSTITCH_IR_HOSTPLAN_H

// The host plan: what runs on the host at each call of a compiled function
// (DISC's host flow, generated at compile time). Transforms build it, the
// runtime executes it, so it lives here where both can see it and nothing of
// either leaks into the other. At each call the runtime
//   1. binds the symbols from the input shapes, computes the host symbols
//      from the inputs and checks `constraints`;
//   2. evaluates every buffer's size and places temporaries in an arena of
//      `slots` (buffers whose lifetimes do not overlap share a slot);
//   3. runs `steps` in order: a kernel launch picks the first variant whose
//      predicates hold and runs its grid of blocks; a library step calls the
//      runtime's implementation (dot); an alias step makes a buffer view
//      another one (a reshape of contiguous data);
//   4. returns the output buffers.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Constraints.h"
#include "ir/DenseElements.h"
#include "ir/DimPredicate.h"
#include "ir/HostSymbols.h"
#include "ir/OpInfo.h"
#include "ir/Type.h"

namespace xs {

struct HostBuffer {
  enum class Kind : uint8_t {
    Input,     // a function parameter (memory owned by the caller)
    Output,    // a function result (allocated per call, handed to the caller)
    Temporary, // lives in the per-call arena, in slot `slot`
    Constant,  // data known at compile time (`constant`), uploaded once
    Alias,     // a view of buffer `aliasOf` with another shape
  };
  std::string name; // the host function's value name
  TensorType type;  // dims over the plan's symbols
  Kind kind = Kind::Temporary;
  int paramIndex = -1;  // Input
  int resultIndex = -1; // Output (a buffer may be several results: see outputs)
  int slot = -1;        // Temporary
  int aliasOf = -1;     // Alias
  /// Constant: the values (element type as `type`), shared with the IR's
  /// literal when it holds them already (weights are never copied).
  std::shared_ptr<const DenseElements> constant;
  /// Constant: where its values came from, for reports (the defining op's
  /// Location::origin: "initializer 'ln.weight'"); empty when unknown.
  std::string origin;
};

/// One variant of a kernel launch, as compiled: its symbol and grid.
struct HostLaunchVariant {
  std::vector<DimPredicate> predicates; // all must hold; empty for the last
  std::string symbol;                   // the compiled function's name
  DimExpr grid;                         // blocks
  /// Phases separated by grid barriers. Targets without an in-kernel grid
  /// barrier (x86) compile one function per phase, named by phaseSymbol(),
  /// and the runtime runs them one after another over the whole grid.
  int phases = 1;
  /// Vertical packing: consecutive blocks one task runs
  /// (KernelVariant::blocksPerTask).
  DimExpr blocksPerTask = DimExpr(1);
  /// Bytes of block buffers one block of each phase's function uses, each
  /// buffer rounded up to kBlockBufferAlignment (transforms/BlockBuffers.h;
  /// GPUs: the dynamic shared memory a launch asks for; x86 keeps block
  /// buffers on the worker's stack and ignores it). The cooperative kernel
  /// holds every phase's at once: totalBlockBufferBytes().
  std::vector<DimExpr> phaseBlockBufferBytes;
  /// Lanes of each block (ThreadMapping::lanes): GPU launches run blocks of
  /// this many threads; the CPU runtime ignores it (its lanes are SIMD).
  int64_t lanes = 1;
  /// Several phases, and a target with a grid barrier
  /// (TargetDescription::gridBarrier): besides the phase functions, one
  /// cooperative kernel cooperativeSymbol(symbol) runs every phase, its
  /// blocks striding over the grid and waiting for each other between
  /// phases. A runtime launches it with as many blocks as stay resident at
  /// once, and a zeroed barrier word after the kernel's buffers
  /// (KernelABI.h); where it cannot, it runs the phases one by one.
  bool cooperative = false;
  /// Some group of the kernel runs its own number of blocks, strided over
  /// the grid (PlanGroup::blocks): a grid of 0 blocks may leave that group
  /// work (an empty result beside a non-empty one), so the runtime launches
  /// one block, in which only those groups' loops run. Without it a grid of
  /// 0 launches nothing.
  bool ownBlockGroups = false;

  /// The block-buffer bytes of phase `phase`'s function (0 when the plan
  /// names none).
  DimExpr blockBufferBytes(int phase) const;
  /// Every phase's block-buffer bytes: the cooperative kernel's.
  DimExpr totalBlockBufferBytes() const;
};

/// Block buffers start at multiples of this many bytes (the widest vector
/// access of any target).
inline constexpr int64_t kBlockBufferAlignment = 16;

/// The function of phase `phase` of a launch variant on targets that split
/// phases: `symbol` for phase 0, `symbol.p<phase>` after it.
std::string phaseSymbol(const std::string &symbol, int phase);

/// The cooperative kernel of a launch variant (HostLaunchVariant::cooperative):
/// `symbol.coop`.
std::string cooperativeSymbol(const std::string &symbol);

/// Every function a launch variant compiles to on a target with a grid
/// barrier: its phases in order, then its cooperative kernel if it has one.
std::vector<std::string> launchSymbols(const HostLaunchVariant &variant);

struct HostStep {
  enum class Kind : uint8_t { Launch, Library, Alias };
  Kind kind = Kind::Launch;
  std::string kernel;                      // Launch: the KernelPlan's name
  std::vector<HostLaunchVariant> variants; // Launch: first match wins; last always matches
  OpKind libraryOp = OpKind::Dot;          // Library
  /// Launch: buffers in kernel-argument order (body parameters, then body
  /// results). Library: operands then result. Alias: {source, alias}.
  std::vector<int> buffers;
  std::vector<std::string> ops; // the IR ops it covers, for reports
  DimExpr minimumBytes;         // bytes it must move at least, for reports
};

/// A data-dependent error a kernel checks for (an integer division by zero,
/// an index out of range): where the reference interpreter refuses an
/// input, compiled code raises the run's status word instead of computing
/// on (backends/common/KernelABI.h), and the runtime turns it into an error
/// naming the op. A check's position in HostPlan::checks is its code in
/// the status word.
struct HostCheck {
  enum class Kind : uint8_t {
    DivisionByZero,      // integer div or rem by zero
    ZeroToNegativePower, // integer pow of 0 by a negative exponent
    IndexOutOfRange,     // gather, take_along_axis: outside [-bound, bound)
    // Checked on the host when the dims are bound (they depend on no data):
    ReflectPadTooWide, // pad {mode = reflect} of dim `axis` by `amount` >= bound
    EdgePadOfEmpty,    // pad {mode = edge} of dim `axis`, whose size `bound` is 0
    TopKBeyondDim,     // top_k of k = `amount` along dim `axis`, which has `bound` < k
    // gather, take_along_axis by indices the graph clamps (isClampedIndex)
    // from a dim whose size `bound` is 0, with `elements` indices above 0
    ClampedIndexOfEmpty,
  };
  Kind kind = Kind::DivisionByZero;
  std::string kernel; // the KernelPlan whose body holds the op
  int opIndex = -1;   // the op's position in that body
  std::string op;     // the op as reports name it: "%g = gather"
  DimExpr bound;      // the size of the dim indexed or padded
  int axis = 0;       // pads: the dim padded
  int64_t amount = 0; // ReflectPadTooWide: the larger of its low and high padding; top_k: k
  DimExpr elements;   // ClampedIndexOfEmpty: how many indices there are
  /// Whether the check runs on the host when the dims are bound, rather
  /// than in the kernel.
  bool onHost() const { return kind >= Kind::ReflectPadTooWide; }
  /// Other kernels that run the same code (KernelPlan::codeOf): the error
  /// may come from any of them.
  std::vector<std::string> sharedBy;
};

struct HostPlan {
  std::string function;
  /// Every symbol the plan uses, in kernel-ABI order: a kernel receives a
  /// pointer to an int64 array holding their values in this order.
  std::vector<std::string> symbols;
  ConstraintStore constraints;
  /// Symbols computed from the inputs at each call (ir/HostSymbols.h), bound
  /// before the constraints are checked; nullptr when there are none.
  std::shared_ptr<const HostSymbols> hostSymbols;
  std::vector<TensorType> paramTypes;
  std::vector<HostBuffer> buffers;
  std::vector<HostStep> steps;
  /// Buffer of each function result, in order.
  std::vector<int> outputs;
  /// Temporaries sharing a slot never live at the same time; a slot's size
  /// is the largest of its buffers at the call's dims.
  int numSlots = 0;
  /// The data checks compiled into the kernels, in status-word code order.
  std::vector<HostCheck> checks;
};

/// What a step reads that the call or the compile provides, in its argument
/// order: "%x" for an input, "%w from initializer 'ln.weight'" for a
/// constant with an origin; weights and inputs traced back to the model.
std::vector<std::string> stepSources(const HostPlan &plan, const HostStep &step);

/// A compiled function: the host plan and the kernels' code. For the x86
/// backend `objects` are relocatable ELF objects that together define every
/// launch variant's symbol (kernels compile on several threads, one object
/// each); GPU backends will put PTX or a code object here.
struct SpeculatedProgram;

struct CompiledProgram {
  HostPlan host;
  std::string objectFormat; // "x86_64-elf"
  std::vector<std::string> objects;
  /// Kernel arguments of at least this many bytes at a launch are marked
  /// in its stream mask (backends/common/KernelABI.h): the kernels may write
  /// them with streaming stores. 0: never.
  int64_t streamingStoreBytes = 0;
  /// Broadcast speculation (transforms/SpeculateBroadcasts.h): a function
  /// whose symbolic dims meet in broadcasts compiles to one program per
  /// relation of those dims. Then `host` is only the function's signature
  /// (parameter types, results as Output buffers, the broadcast facts as its
  /// constraints; no steps), `objects` is empty, and a call binds the
  /// signature's dims and runs the first of these whose assumptions hold.
  std::vector<SpeculatedProgram> speculations;
};

struct SpeculatedProgram {
  /// Over the signature's symbols: `M == N`, `M == 1`.
  std::vector<DimPredicate> assumptions;
  CompiledProgram program;
};

/// A readable dump (for --explain-style reports and golden tests).
std::string printHostPlan(const HostPlan &plan);

/// What a check looks for: "integer division by zero", "index out of range".
std::string_view hostCheckText(HostCheck::Kind kind);

} // namespace xs

#endif // XSTITCH_IR_HOSTPLAN_H
