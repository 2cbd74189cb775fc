// The platforms of AMD GPUs: present ones through HIP (hip:N), and presets
// (gfxNNN) that code is compiled for without a GPU, as HSA code objects, and
// runs on a present one.

#include "absl/strings/ascii.h"
#include "ir/Diagnostics.h"
#include "runtime/devices/Devices.h"
#include "runtime/devices/GpuPlatforms.h"
#include "runtime/hip/HipDevice.h"

namespace xs {
namespace {

absl::StatusOr<std::unique_ptr<Device>> createHip(int ordinal,
                                                  const gpu::GpuContextOptions &context) {
  hip::HipDeviceOptions options;
  options.ordinal = ordinal;
  options.context = context;
  return hip::createHipDevice(options);
}

/// hip (GPU 0) or hip:N.
std::optional<absl::StatusOr<DeviceSpec>> parseHip(std::string_view name) {
  return parseGpuOrdinalName(name, "hip", "HIP");
}

absl::StatusOr<std::shared_ptr<Executable>>
loadOnHip(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  XS_ASSIGN_OR_RETURN(Device * gpu, processGpuDevice(device, options.syncLaunches, createHip));
  return gpu->load(std::move(program));
}

/// gfx and a processor number (hex digits, gfx90a): whether xstitch has the
/// preset is the compiler's to say (backends/amdgpu/AmdgpuTargetDescription.h).
std::optional<absl::StatusOr<DeviceSpec>> parsePreset(std::string_view name) {
  if (name.size() <= 3 || name.substr(0, 3) != "gfx")
    return std::nullopt;
  for (char c : name.substr(3))
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  return DeviceSpec{.platform = "amdgpu", .name = std::string(name), .preset = std::string(name)};
}

} // namespace

const DevicePlatform &hipPlatform() {
  static const DevicePlatform platform{
      .name = "hip",
      .syntax = "hip[:N]",
      .codeFamily = "hsaco",
      .defaultRunDevice = "hip:0",
      .parse = parseHip,
      .load = loadOnHip,
  };
  return platform;
}

const DevicePlatform &amdgpuPresetPlatform() {
  static const DevicePlatform platform{
      .name = "amdgpu",
      .syntax = "gfxNNN",
      .codeFamily = "hsaco",
      .defaultRunDevice = "hip:0",
      .parse = parsePreset,
      .load = nullptr,
  };
  return platform;
}

} // namespace xs
