// The platforms of NVIDIA GPUs: present ones through the CUDA driver
// (cuda:N), and presets (sm_XX) that code is compiled for without a GPU and
// runs on a present one.

#include <map>
#include <mutex>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "ir/Diagnostics.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/devices/Devices.h"

namespace xs {
namespace {

// One CUDA device per GPU. A GPU that cannot be opened is tried again at the
// next load (the error may be transient); one whose context a kernel fault
// left unusable is replaced by a device on a reset context (the executables
// loaded on the old one keep failing, saying so).
absl::StatusOr<Device *> cudaDevice(int ordinal, bool syncLaunches) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<std::pair<int, bool>, std::shared_ptr<Device>>();
  static auto *faulted = new std::vector<std::shared_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::shared_ptr<Device> &device = (*devices)[{ordinal, syncLaunches}];
  bool reset = false;
  if (device && !device->usable()) {
    // Devices are handed out as plain pointers: the old one stays alive.
    faulted->push_back(std::move(device));
    reset = true;
  }
  if (!device) {
    cuda::CudaDeviceOptions cudaOptions;
    cudaOptions.ordinal = ordinal;
    cudaOptions.context.syncLaunches = syncLaunches;
    cudaOptions.context.resetPrimaryContext = reset;
    XS_ASSIGN_OR_RETURN(device, cuda::createCudaDevice(cudaOptions));
  }
  return device.get();
}

/// cuda (GPU 0) or cuda:N.
std::optional<absl::StatusOr<DeviceSpec>> parseCuda(std::string_view name) {
  if (name != "cuda" && name.substr(0, 5) != "cuda:")
    return std::nullopt;
  int ordinal = 0;
  if (name.size() > 5 &&
      (!absl::SimpleAtoi(absl::string_view(name.data() + 5, name.size() - 5), &ordinal) ||
       ordinal < 0))
    return absl::StatusOr<DeviceSpec>(absl::InvalidArgumentError(
        strCat("'", name, "' names no CUDA device: write cuda or cuda:N with N >= 0")));
  return DeviceSpec{.platform = "cuda", .name = strCat("cuda:", ordinal), .ordinal = ordinal};
}

absl::StatusOr<std::shared_ptr<Executable>>
loadOnCuda(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  XS_ASSIGN_OR_RETURN(Device * gpu, cudaDevice(device.ordinal, options.syncLaunches));
  return gpu->load(std::move(program));
}

/// sm_ and digits: whether xstitch has the preset is the compiler's to say
/// (backends/nvptx/NvidiaTargetDescription.h).
std::optional<absl::StatusOr<DeviceSpec>> parsePreset(std::string_view name) {
  if (name.size() <= 3 || name.substr(0, 3) != "sm_")
    return std::nullopt;
  for (char c : name.substr(3))
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  return DeviceSpec{.platform = "nvptx", .name = std::string(name), .preset = std::string(name)};
}

} // namespace

const DevicePlatform &cudaPlatform() {
  static const DevicePlatform platform{
      .name = "cuda",
      .syntax = "cuda[:N]",
      .codeFamily = "ptx",
      .defaultRunDevice = "cuda:0",
      .parse = parseCuda,
      .load = loadOnCuda,
  };
  return platform;
}

const DevicePlatform &nvidiaPresetPlatform() {
  static const DevicePlatform platform{
      .name = "nvptx",
      .syntax = "sm_XX",
      .codeFamily = "ptx",
      .defaultRunDevice = "cuda:0",
      .parse = parsePreset,
      .load = nullptr,
  };
  return platform;
}

} // namespace xs
