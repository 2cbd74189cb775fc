#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPUBACKEND_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPUBACKEND_H

// The AMDGPU backend: KernelPlans planned for an AMD GPU (a preset,
// AmdgpuTargetDescription.h) through the common emitter with an
// AmdgpuTarget, to AMDGCN assembly or an HSA code object (HSACO) linked in
// process (AmdgpuCompiler.h). The mappings are the NVIDIA backend's with the
// wavefront for the warp: 64 lanes on CDNA (gfx90a, gfx942), 32 on RDNA3
// (gfx1100). The HIP device loads the HSACO; the AMDGPU simulation runs the
// same kernels on the CPU (docs/amd.md).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/amdgpu/AmdgpuTarget.h"
#include "backends/amdgpu/AmdgpuTargetDescription.h"
#include "transforms/PlanProgram.h"
#include "llvm/IR/Module.h"

namespace xs {

struct AmdgpuOptions {
  AmdgpuDeviceLimits limits; // of the GPU compiled for (limits.arch names the processor)
  int64_t lanesPerBlock = 256;
  int optLevel = 3;
  /// f32 arithmetic flushes subnormal inputs and results to zero, as the
  /// CPU does by default; false keeps them (--keep-denormals).
  bool flushDenormals = true;
  /// The butterflies' lane exchanges (AmdgpuTarget.h).
  AmdgpuShuffles shuffles = AmdgpuShuffles::Dpp;
};

/// The GPU described for the planner (amdgpuTargetDescription).
TargetDescription amdgpuTargetDescriptionOf(const AmdgpuOptions &options);

/// The program's kernels emitted into a fresh module of `context` (code
/// object version 5), before any optimization. A kernel that fails to
/// compile is an internal error naming the kernel.
absl::StatusOr<std::unique_ptr<llvm::Module>> emitAmdgpuModule(const ProgramPlan &program,
                                                               const AmdgpuOptions &options,
                                                               llvm::LLVMContext &context);

/// AMDGCN assembly of every kernel variant of `program` (planned with
/// amdgpuTargetDescriptionOf(options)).
absl::StatusOr<std::string> emitAmdgcn(const ProgramPlan &program, const AmdgpuOptions &options);

/// The HSA code object of every kernel variant of `program`.
absl::StatusOr<std::string> emitHsaco(const ProgramPlan &program, const AmdgpuOptions &options);

/// The kernels' LLVM IR as the emitter wrote it (golden tests).
absl::StatusOr<std::string> emitAmdgpuLLVMIR(const ProgramPlan &program,
                                             const AmdgpuOptions &options);

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUBACKEND_H
