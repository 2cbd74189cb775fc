#ifndef XSTITCH_BACKENDS_NVPTX_NVPTXSIMULATION_H
#define XSTITCH_BACKENDS_NVPTX_NVPTXSIMULATION_H

// The NVPTX simulation's compilation: a program planned for an NVIDIA GPU,
// its kernels emitted exactly as for PTX, then lowered to host code
// (backends/common/SimtLowering.h) and compiled for the host CPU. The object runs on a CPU
// device that resolves kSimtRunBlocksSymbol to the lane scheduler
// (runtime/simt/LaneScheduler.h); xstitch-run --device=nvptx-sim.

#include "absl/status/statusor.h"
#include "backends/nvptx/NvptxBackend.h"
#include "backends/x86/X86Backend.h"
#include "ir/HostPlan.h"

namespace xs {

/// `program` must be planned with nvptxTargetDescription(nvptx); `host`
/// chooses the host code's CPU and optimization level.
absl::StatusOr<CompiledProgram> compileNvptxSimulation(const ProgramPlan &program,
                                                       const NvptxOptions &nvptx,
                                                       const X86Options &host);

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_NVPTXSIMULATION_H
