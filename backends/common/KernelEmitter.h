#ifndef XSTITCH_BACKENDS_COMMON_KERNELEMITTER_H
#define XSTITCH_BACKENDS_COMMON_KERNELEMITTER_H

// KernelPlan -> LLVM IR, once for every target, through the Target interface.
// Each variant of each kernel becomes one function named
// `<plan.name>.v<index>`, or, on targets without a grid barrier inside a
// kernel, one function per phase (phaseSymbol() in ir/HostPlan.h). Values are computed element by
// element from the body's ops (an element generator maps a result index to operand indices:
// broadcast, transpose, slice, concat, pad, gather, reshape by index
// arithmetic), so a kernel may hold any number of ops.

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "backends/common/Target.h"
#include "transforms/PlanProgram.h"
#include "llvm/IR/Module.h"

namespace xs {

/// The symbol of variant `variant` of `plan`.
std::string kernelSymbol(const KernelPlan &plan, size_t variant);

/// A unit of emission: a kernel's variant (its phase functions and, on
/// targets with a grid barrier, its cooperative kernel), or one phase
/// function of it.
struct KernelPiece {
  size_t kernel = 0;
  size_t variant = 0;
  int phase = -1; // -1: every phase
};
/// Every variant (all phases) of every kernel with code of its own
/// (KernelPlan::codeOf empty): what a program compiles.
std::vector<KernelPiece> programPieces(const ProgramPlan &program);

/// Emits programPieces(program) into `module` (whose triple and data
/// layout the caller set from the target). The HostPlan gives the symbol
/// order of the dims array. An unsupported construct is an internal error
/// naming the kernel.
absl::Status emitProgramKernels(const ProgramPlan &program, Target &target, llvm::Module &module);
/// The same for the given pieces only (a compile job's share).
absl::Status emitProgramKernels(const ProgramPlan &program, const std::vector<KernelPiece> &pieces,
                                Target &target, llvm::Module &module);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_KERNELEMITTER_H
