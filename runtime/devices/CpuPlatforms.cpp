// The platforms whose code runs on the host CPU: the CPU itself, and the
// SIMT simulations (code generated for an NVIDIA or an AMD GPU, lowered to
// host code, run thread by thread by the lane scheduler, runtime/simt).

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
// program loaded in the process, and one device per simulation (the CPU
// device with the lane scheduler, named `simulation`) per the same and kind
// of launch of several phases. Devices live as long as the process (no
// destruction-order hazards with TBB's globals at exit).
Device &cpuDevice(int threads, bool flushDenormals, std::string_view simulation, bool cooperative) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices =
      new std::map<std::tuple<int, bool, std::string, bool>, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<Device> &device =
      (*devices)[{threads, flushDenormals, std::string(simulation), cooperative}];
  if (!device) {
    CpuDeviceOptions cpuOptions;
    cpuOptions.threads = threads;
    cpuOptions.flushDenormals = flushDenormals;
    cpuOptions.cooperativeLaunches = cooperative;
    device = simulation.empty() ? createCpuDevice(cpuOptions)
                                : createSimtSimulationDevice(cpuOptions, std::string(simulation));
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
  return cpuDevice(options.threads, options.flushDenormals, /*simulation=*/"",
                   /*cooperative=*/true)
      .load(std::move(program));
}

/// PREFIX, PREFIX:PRESET, PREFIX:phases, PREFIX:PRESET:phases (in either
/// order): at most one preset (checked by the compiler, which knows them)
/// and ":phases" at most once.
std::optional<absl::StatusOr<DeviceSpec>>
parseSimulationName(std::string_view name, std::string_view prefix, std::string_view defaultPreset,
                    std::string_view syntax, std::string_view vendor) {
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
    return absl::StatusOr<DeviceSpec>(absl::InvalidArgumentError(
        strCat("'", name, "' is not an ", vendor, " simulation device: write ", syntax)));
  if (device.preset.empty())
    device.preset = std::string(defaultPreset);
  device.phaseLaunches = phases == 1;
  return device;
}

std::optional<absl::StatusOr<DeviceSpec>> parseNvptxSimulation(std::string_view name) {
  return parseSimulationName(name, kNvptxSimulationDevice, kDefaultSimulatedTarget,
                             "nvptx-sim[:sm_XX][:phases]", "NVPTX");
}

std::optional<absl::StatusOr<DeviceSpec>> parseAmdgpuSimulation(std::string_view name) {
  return parseSimulationName(name, kAmdgpuSimulationDevice, kDefaultSimulatedAmdTarget,
                             "amdgpu-sim[:gfxNNN][:phases]", "AMDGPU");
}

absl::StatusOr<std::shared_ptr<Executable>>
loadOnSimulation(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  return cpuDevice(options.threads, options.flushDenormals, device.platform,
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
      .parse = parseNvptxSimulation,
      .load = loadOnSimulation,
  };
  return platform;
}

const DevicePlatform &amdgpuSimulationPlatform() {
  static const DevicePlatform platform{
      .name = kAmdgpuSimulationDevice,
      .syntax = "amdgpu-sim[:gfxNNN][:phases]",
      .codeFamily = "amdgpu-sim",
      .defaultRunDevice = "",
      .parse = parseAmdgpuSimulation,
      .load = loadOnSimulation,
  };
  return platform;
}

} // namespace xs
