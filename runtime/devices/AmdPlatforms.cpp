// The platforms of AMD GPUs: presets (gfxNNN) that code is compiled for
// without a GPU, as HSA code objects.

#include "absl/strings/ascii.h"
#include "runtime/devices/Devices.h"

namespace xs {
namespace {

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

const DevicePlatform &amdgpuPresetPlatform() {
  static const DevicePlatform platform{
      .name = "amdgpu",
      .syntax = "gfxNNN",
      .codeFamily = "hsaco",
      .defaultRunDevice = "",
      .parse = parsePreset,
      .load = nullptr,
  };
  return platform;
}

} // namespace xs
