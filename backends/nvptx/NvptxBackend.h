#ifndef XSTITCH_BACKENDS_NVPTX_NVPTXBACKEND_H
#define XSTITCH_BACKENDS_NVPTX_NVPTXBACKEND_H

// The NVPTX backend: KernelPlans planned for an NVIDIA target (a preset or a
// queried GPU, NvidiaTargetDescription.h) through the common emitter with an
// NvptxTarget, to PTX text. Element-wise groups and row reductions spread
// each row's columns over the block's threads, the reductions then merging
// the lanes' states; column reductions give each thread columns of the
// block's strip; the Generic mapping splits each result's reduction over the
// threads (docs/nvidia.md). The CUDA device (runtime/cuda) loads the PTX;
// the NVPTX simulation (NvptxSimulation.h) runs the same kernels on the CPU.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/nvptx/NvidiaTargetDescription.h"
#include "transforms/PlanProgram.h"
#include "llvm/IR/Module.h"

namespace xs {

struct NvptxOptions {
  NvidiaDeviceLimits limits; // of the GPU compiled for (limits.arch names the PTX target)
  int64_t lanesPerBlock = 256;
  int optLevel = 3;
  /// f32 arithmetic flushes subnormal inputs and results to zero (PTX's
  /// .ftz), as the CPU does by default; false keeps them (--keep-denormals).
  bool flushDenormals = true;
};

/// The GPU described for the planner (nvidiaTargetDescription).
TargetDescription nvptxTargetDescription(const NvptxOptions &options);

/// PTX of every kernel variant of `program` (planned with
/// nvptxTargetDescription(options)). A kernel that fails to compile is an
/// internal error naming the kernel.
absl::StatusOr<std::string> emitPtx(const ProgramPlan &program, const NvptxOptions &options);

/// The program's kernels emitted into a fresh module of `context`, before
/// any optimization.
absl::StatusOr<std::unique_ptr<llvm::Module>> emitNvptxModule(const ProgramPlan &program,
                                                              const NvptxOptions &options,
                                                              llvm::LLVMContext &context);

/// The kernels' LLVM IR as the emitter wrote it (golden tests).
absl::StatusOr<std::string> emitNvptxLLVMIR(const ProgramPlan &program,
                                            const NvptxOptions &options);

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_NVPTXBACKEND_H
