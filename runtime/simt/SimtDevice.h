#ifndef XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H
#define XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H

// The SIMT simulation devices ("nvptx-sim", "amdgpu-sim"): the CPU device
// running objects of backends/nvptx/NvptxSimulation.h or
// backends/amdgpu/AmdgpuSimulation.h, whose kernels call the lane scheduler
// (LaneScheduler.h) for their blocks. They run the code generated for NVIDIA
// and AMD GPUs on machines without one, to check it against the interpreter.

#include <memory>
#include <string>

#include "runtime/cpu/CpuDevice.h"

namespace xs {

inline constexpr const char *kNvptxSimulationDevice = "nvptx-sim";
inline constexpr const char *kAmdgpuSimulationDevice = "amdgpu-sim";

/// A simulation device named `name`; `options.hostSymbols` are the
/// scheduler's.
std::unique_ptr<Device> createSimtSimulationDevice(CpuDeviceOptions options, std::string name);

} // namespace xs

#endif // XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H
