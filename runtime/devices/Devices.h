#ifndef XSTITCH_RUNTIME_DEVICES_DEVICES_H
#define XSTITCH_RUNTIME_DEVICES_DEVICES_H

// The process's devices, by name, and loading a compiled program on one:
// what the compile driver and the bundle loader share, so that both load on
// the same device objects (one CPU device per worker-thread count and float
// mode, one CUDA device per GPU). Nothing here compiles: the runtime-only
// library links this.
//
// Device names (each platform's syntax, DevicePlatform.h): "cpu"; "cuda" /
// "cuda:N" (GPU N through the CUDA driver); "nvptx-sim[:sm_XX][:phases]"
// (the code for an NVIDIA GPU run on the CPU thread by thread,
// runtime/simt); "sm_XX" (code for an NVIDIA GPU preset, compiled without
// one: it runs on a CUDA device).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"
#include "runtime/devices/DevicePlatform.h"
#include "runtime/devices/DeviceSpec.h"

namespace xs {

/// `name` parsed by the platform whose name it is. A name no platform
/// knows is an InvalidArgument error listing how names are written.
absl::StatusOr<DeviceSpec> parseDeviceName(std::string_view name);

/// Whether `device` is a present GPU (cuda:N, hip:N), whose memory is not
/// the host's.
bool isPresentGpu(const DeviceSpec &device);
/// Whether `name` names one.
bool isPresentGpuName(std::string_view name);
inline constexpr const char *kDefaultSimulatedTarget = "sm_90";
inline constexpr const char *kDefaultSimulatedAmdTarget = "gfx942";
inline constexpr const char *kPhaseLaunches = "phases";

/// How programs are loaded: the device and, for code that runs on the CPU,
/// its worker threads and float mode.
struct LoadOptions {
  std::string device = "cpu";
  int threads = 0;            // CPU workers; 0: all cores
  bool flushDenormals = true; // runtime/cpu/DenormalFlush.h
  bool syncLaunches = false;  // GPUs: gpu::GpuContextOptions::syncLaunches
};

/// Loads `program` on the process's device `device` (options.device is not
/// read). A GPU that cannot be opened is an error now and tried again at the
/// next load.
absl::StatusOr<std::shared_ptr<Executable>>
loadCompiledProgram(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options);
/// The same on the device options.device names.
absl::StatusOr<std::shared_ptr<Executable>> loadCompiledProgram(CompiledProgram program,
                                                                const LoadOptions &options);

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_DEVICES_H
