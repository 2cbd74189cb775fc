#ifndef XSTITCH_BACKENDS_X86_X86BACKEND_H
#define XSTITCH_BACKENDS_X86_X86BACKEND_H

// The x86 backend: a block is a TBB task (the runtime splits the grid), lanes
// are SIMD vectors made by LLVM's loop vectorizer from the emitter's inner
// loops, block buffers are aligned per-task stack buffers, and code is
// generated for the host CPU's features (AVX2, AVX-512) at -O3.

#include <string>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "transforms/PlanProgram.h"
#include "transforms/TargetDescription.h"

namespace llvm {
class Module;
} // namespace llvm

namespace xs {

struct X86Options {
  /// LLVM CPU name and feature string; empty: the host's.
  std::string cpu;
  std::string features;
  /// Worker threads the runtime will use (TBB's default concurrency when 0).
  int threads = 0;
  int optLevel = 3;
  /// Elements a block should have at least (TargetDescription::
  /// minElementsPerBlock); 0: 16384, a few L1-sized tiles.
  int64_t minElementsPerBlock = 0;
  /// The runtime runs the kernels with subnormals flushed to zero
  /// (CpuDeviceOptions::flushDenormals).
  bool flushDenormals = true;
  /// Results of at least this many bytes may be written with streaming
  /// stores (CompiledProgram::streamingStoreBytes); 0: half the host's
  /// last-level cache; negative: never.
  int64_t streamingStoreBytes = 0;
  /// Run LLVM's codegen loop strength reduction. Off: it took a third of
  /// code generation (half for transposes, whose element-by-element
  /// addresses give it many IV uses to weigh) and changed no workload's run
  /// time beyond noise (docs/performance.md).
  bool loopStrengthReduction = false;
};

/// The LLVM CPU name and feature string code is generated for: the options',
/// or the host's where they name none.
struct X86Cpu {
  std::string cpu;
  std::string features;
};
X86Cpu resolveX86Cpu(const X86Options &options);

/// The host CPU described for the planner.
TargetDescription x86TargetDescription(const X86Options &options);

/// Emits and optimizes the kernels of `program` and compiles them to
/// relocatable objects (CompiledProgram::objects), on one thread per core
/// when there are several kernel variants. A kernel that fails to compile is an
/// internal error naming the kernel.
absl::StatusOr<CompiledProgram> compileForX86(const ProgramPlan &program,
                                              const X86Options &options);

/// The optimized LLVM IR of every kernel, as text (xstitch-run --emit=llvm).
/// With `optimized` false, the IR as the emitter wrote it.
absl::StatusOr<std::string> emitX86LLVMIR(const ProgramPlan &program, const X86Options &options,
                                          bool optimized);

/// Optimizes `module` for the host CPU and compiles it to a relocatable
/// object: code another backend emitted and lowered to run on the host (the
/// SIMT simulations, backends/common/SimtLowering.h). The module's triple and
/// data layout become the host's. A failure is an internal error naming the
/// module.
absl::StatusOr<std::string> compileHostModule(llvm::Module &module, const X86Options &options);

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_X86BACKEND_H
