// The platforms of NVIDIA GPUs: present ones through the CUDA driver
// (cuda:N), and presets (sm_XX) that code is compiled for without a GPU and
// runs on a present one.

#include "absl/strings/ascii.h"
#include "ir/Diagnostics.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/devices/Devices.h"
#include "runtime/devices/GpuPlatforms.h"

namespace xs {
namespace {

absl::StatusOr<std::unique_ptr<Device>> createCuda(int ordinal,
                                                   const gpu::GpuContextOptions &context) {
  cuda::CudaDeviceOptions options;
  options.ordinal = ordinal;
  options.context = context;
  return cuda::createCudaDevice(options);
}

/// cuda (GPU 0) or cuda:N.
std::optional<absl::StatusOr<DeviceSpec>> parseCuda(std::string_view name) {
  return parseGpuOrdinalName(name, "cuda", "CUDA");
}

absl::StatusOr<std::shared_ptr<Executable>>
loadOnCuda(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  XS_ASSIGN_OR_RETURN(Device * gpu, processGpuDevice(device, options.syncLaunches, createCuda));
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
