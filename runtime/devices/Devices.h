#ifndef XSTITCH_RUNTIME_DEVICES_DEVICES_H
#define XSTITCH_RUNTIME_DEVICES_DEVICES_H

// The process's devices, by name, and loading a compiled program on one:
// what the compile driver and the bundle loader share, so that both load on
// the same device objects (one CPU device per worker-thread count and float
// mode, one CUDA device per GPU). Nothing here compiles: the runtime-only
// library links this.
//
// Device names: "cpu"; "cuda" / "cuda:N" (GPU N through the CUDA driver);
// "nvptx-sim[:sm_XX][:phases]" (the code for an NVIDIA GPU run on the CPU
// thread by thread, runtime/simt).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"

namespace xs {

/// Whether `name` names a CUDA device ("cuda", "cuda:N").
bool isCudaDeviceName(std::string_view name);
/// N of "cuda:N" (0 for "cuda"); anything else is an InvalidArgument error.
absl::StatusOr<int> cudaOrdinal(std::string_view name);
/// Whether `name` names the NVPTX simulation ("nvptx-sim", "nvptx-sim:sm_80",
/// "nvptx-sim:sm_80:phases"; runtime/simt/SimtDevice.h).
bool isNvptxSimulationName(std::string_view name);
/// The preset an NVPTX simulation device simulates: the part after a colon
/// that is not kPhaseLaunches, else kDefaultSimulatedTarget.
std::string simulatedNvidiaTarget(std::string_view name);
inline constexpr const char *kDefaultSimulatedTarget = "sm_90";
/// Whether an NVPTX simulation device launches variants of several phases
/// as their cooperative kernel (as a GPU that supports it does), unless its
/// name ends in ":phases": then as a launch per phase (as one that does
/// not), so that both kinds of kernel are checked.
bool simulatesCooperativeLaunches(std::string_view name);
inline constexpr const char *kPhaseLaunches = "phases";
/// The parts of an NVPTX simulation device's name after its colons.
std::vector<std::string> nvptxSimulationNameParts(std::string_view name);

/// How programs are loaded: the device and, for code that runs on the CPU,
/// its worker threads and float mode.
struct LoadOptions {
  std::string device = "cpu";
  int threads = 0;            // CPU workers; 0: all cores
  bool flushDenormals = true; // runtime/cpu/DenormalFlush.h
  bool syncLaunches = false;  // GPUs: cuda::CudaContextOptions::syncLaunches
};

/// Loads `program` on the process's device `options.device`. A GPU that
/// cannot be opened is an error now and tried again at the next load.
absl::StatusOr<std::shared_ptr<Executable>> loadCompiledProgram(CompiledProgram program,
                                                                const LoadOptions &options);

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_DEVICES_H
