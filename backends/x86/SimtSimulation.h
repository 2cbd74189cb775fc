#ifndef XSTITCH_BACKENDS_X86_SIMTSIMULATION_H
#define XSTITCH_BACKENDS_X86_SIMTSIMULATION_H

// The SIMT simulations' compilation (NVPTX and AMDGPU): a program's kernels,
// emitted exactly as for the GPU, lowered to host code with the vendor's
// dialect (backends/common/SimtLowering.h) and compiled for the host CPU.
// The object runs on a CPU device that resolves the lane scheduler's
// symbols (runtime/simt/SimtDevice.h).

#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/common/SimtLowering.h"
#include "backends/x86/X86Backend.h"
#include "llvm/IR/LLVMContext.h"

namespace xs {

/// `emit` writes the GPU module of `program` into the context it is given;
/// `kernels` are the kernel functions the program launches (simtKernelsOf).
absl::StatusOr<CompiledProgram> compileSimtSimulation(
    const ProgramPlan &program, const std::vector<SimtKernel> &kernels,
    const std::function<absl::StatusOr<std::unique_ptr<llvm::Module>>(llvm::LLVMContext &)> &emit,
    const SimtDialect &dialect, const X86Options &host);

} // namespace xs

#endif // XSTITCH_BACKENDS_X86_SIMTSIMULATION_H
