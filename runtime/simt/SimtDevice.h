#ifndef XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H
#define XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H

// The NVPTX simulation device ("nvptx-sim"): the CPU device running objects
// of backends/nvptx/NvptxSimulation.h, whose kernels call the lane scheduler
// (LaneScheduler.h) for their blocks. It runs the code generated for NVIDIA
// GPUs on machines without one, to check it against the interpreter.

#include <memory>

#include "runtime/cpu/CpuDevice.h"

namespace xs {

inline constexpr const char *kNvptxSimulationDevice = "nvptx-sim";

/// `options.name` and `options.hostSymbols` are the simulation's.
std::unique_ptr<Device> createNvptxSimulationDevice(CpuDeviceOptions options);

} // namespace xs

#endif // XSTITCH_RUNTIME_SIMT_SIMTDEVICE_H
