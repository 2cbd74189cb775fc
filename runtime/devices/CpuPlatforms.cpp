// The platforms whose code runs on the host CPU: the CPU itself, and the
// NVPTX simulation (code generated for an NVIDIA GPU, lowered to host code,
// run thread by thread by the lane scheduler, runtime/simt).

#include <map>
#include <mutex>
#include <tuple>

#include "absl/strings/str_split.h"
#include "ir/Diagnostics.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/devices/Devices.h"
#include "runtime/simt/SimtDevice.h"

namespace xs {
namespace {

// One CPU device per worker-thread count and float mode, shared by every
// program loaded in the process, and one NVPTX simulation device (the CPU
// device with the lane scheduler) per the same and kind of launch of several
// phases. Devices live as long as the process (no destruction-order hazards
// with TBB's globals at exit).
Device &cpuDevice(int threads, bool flushDenormals, bool simulation, bool cooperative) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<std::tuple<int, bool, bool, bool>, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<Device> &device = (*devices)[{threads, flushDenormals, simulation, cooperative}];
  if (!device) {
    CpuDeviceOptions cpuOptions;
    cpuOptions.threads = threads;
    cpuOptions.flushDenormals = flushDenormals;
    cpuOptions.cooperativeLaunches = cooperative;
    device = simulation ? createNvptxSimulationDevice(cpuOptions) : createCpuDevice(cpuOptions);
  }
  return *device;
}

std::optional<absl::StatusOr<DeviceSpec>> parseCpu(std::string_view name) {
  if (name != "cpu")
    return std::nullopt;
  return DeviceSpec{.platform = "cpu", .name = "cpu"};
}

absl::StatusOr<std::shared_ptr<Executable>> loadOnCpu(CompiledProgram program, const DeviceSpec &,
                                                      const LoadOptions &options) {
  return cpuDevice(options.threads, options.flushDenormals, /*simulation=*/false,
                   /*cooperative=*/true)
      .load(std::move(program));
}

/// nvptx-sim, nvptx-sim:sm_80, nvptx-sim:phases, nvptx-sim:sm_80:phases (in
/// either order): at most one preset (checked by the compiler, which knows
/// them) and ":phases" at most once.
std::optional<absl::StatusOr<DeviceSpec>> parseSimulation(std::string_view name) {
  std::string_view prefix = kNvptxSimulationDevice;
  if (name.substr(0, prefix.size()) != prefix ||
      (name.size() > prefix.size() && name[prefix.size()] != ':'))
    return std::nullopt;
  DeviceSpec device{.platform = std::string(prefix), .name = std::string(name)};
  std::vector<std::string> parts = absl::StrSplit(absl::string_view(name.data(), name.size()), ':');
  int presets = 0, phases = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] == kPhaseLaunches) {
      ++phases;
    } else {
      ++presets;
      device.preset = parts[i];
    }
  }
  if (presets > 1 || phases > 1 || (presets == 1 && device.preset.empty()))
    return absl::StatusOr<DeviceSpec>(absl::InvalidArgumentError(strCat(
        "'", name, "' is not an NVPTX simulation device: write nvptx-sim[:sm_XX][:", kPhaseLaunches,
        "]")));
  if (device.preset.empty())
    device.preset = kDefaultSimulatedTarget;
  device.phaseLaunches = phases == 1;
  return device;
}

absl::StatusOr<std::shared_ptr<Executable>>
loadOnSimulation(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  return cpuDevice(options.threads, options.flushDenormals, /*simulation=*/true,
                   /*cooperative=*/!device.phaseLaunches)
      .load(std::move(program));
}

} // namespace

const DevicePlatform &cpuPlatform() {
  static const DevicePlatform platform{
      .name = "cpu",
      .syntax = "cpu",
      .codeFamily = "x86",
      .defaultRunDevice = "",
      .parse = parseCpu,
      .load = loadOnCpu,
  };
  return platform;
}

const DevicePlatform &nvptxSimulationPlatform() {
  static const DevicePlatform platform{
      .name = kNvptxSimulationDevice,
      .syntax = "nvptx-sim[:sm_XX][:phases]",
      .codeFamily = "nvptx-sim",
      .defaultRunDevice = "",
      .parse = parseSimulation,
      .load = loadOnSimulation,
  };
  return platform;
}

} // namespace xs
