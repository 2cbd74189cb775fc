#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPUSIMULATION_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPUSIMULATION_H

// The AMDGPU simulation's compilation: a program planned for an AMD GPU, its
// kernels emitted exactly as for the code object, then lowered to host code
// (backends/common/SimtLowering.h: work-item and workgroup ids, the dispatch
// packet, s_barrier and lane exchanges on the lane's context, wavefronts of the
// preset's width) and compiled for the host CPU. The object runs on a CPU
// device that resolves kSimtRunBlocksSymbol to the lane scheduler
// (runtime/simt/LaneScheduler.h); xstitch-run --device=amdgpu-sim.

#include "absl/status/statusor.h"
#include "backends/amdgpu/AmdgpuBackend.h"
#include "backends/x86/X86Backend.h"
#include "ir/HostPlan.h"

namespace xs {

/// `program` must be planned with amdgpuTargetDescriptionOf(amdgpu); `host`
/// chooses the host code's CPU and optimization level.
absl::StatusOr<CompiledProgram> compileAmdgpuSimulation(const ProgramPlan &program,
                                                        const AmdgpuOptions &amdgpu,
                                                        const X86Options &host);

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUSIMULATION_H
