#include "driver/Backends.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "driver/CpuBackend.h"
#include "driver/NvidiaBackends.h"
#include "ir/Diagnostics.h"
#if XSTITCH_HAS_AMDGPU
#include "driver/AmdBackends.h"
#endif
#include "runtime/devices/DevicePlatform.h"

namespace xs {

const std::vector<const Backend *> &backends() {
  // AMD GPUs only in builds that have them (XSTITCH_AMDGPU: not with the
  // LLVM bundle).
  static const std::vector<const Backend *> all = {
    &nvidiaGpuBackend(),
    &x86Backend(),
    &nvptxSimulationBackend(),
#if XSTITCH_HAS_AMDGPU
    &amdGpuBackend(),
    &amdgpuSimulationBackend(),
#endif
    &nvidiaPresetBackend(),
#if XSTITCH_HAS_AMDGPU
    &amdgpuPresetBackend(),
#endif
  };
  return all;
}

const Backend *backendOf(const DeviceSpec &device) {
  for (const Backend *backend : backends())
    if (backend->platform == device.platform)
      return backend;
  return nullptr;
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveBackendTarget(const DeviceSpec &device,
                                                                    const CodegenOptions &options) {
  if (const Backend *backend = backendOf(device))
    return backend->resolve(device, options);
  return absl::InvalidArgumentError(
      strCat("device '", device.name, "' runs code but xstitch compiles none for it"));
}

std::optional<std::string> presentAcceleratorDevice() {
  for (const Backend *backend : backends())
    if (backend->presentDevice)
      if (std::optional<std::string> device = backend->presentDevice())
        return device;
  return std::nullopt;
}

bool isGpuTarget(const DeviceSpec &device) {
  const Backend *backend = backendOf(device);
  return backend != nullptr && backend->gpuTarget;
}

std::string gpuTargetSyntax() {
  std::vector<std::string> presets, present;
  for (const Backend *backend : backends()) {
    if (!backend->gpuTarget)
      continue;
    if (backend->presetNames) {
      for (std::string &name : backend->presetNames())
        presets.push_back(std::move(name));
      continue;
    }
    for (const DevicePlatform *platform : devicePlatforms())
      if (platform->name == backend->platform)
        present.emplace_back(platform->syntax);
  }
  std::string last = present.empty() ? std::string() : present.back();
  if (!present.empty())
    present.pop_back();
  return strCat("a preset (", absl::StrJoin(presets, ", "), ")",
                present.empty() ? "" : strCat(", ", absl::StrJoin(present, ", ")), " or ", last);
}

std::vector<std::string_view> allEmitFormats() {
  std::vector<std::string_view> formats;
  for (const Backend *backend : backends())
    for (std::string_view format : backend->emitFormats)
      if (std::find(formats.begin(), formats.end(), format) == formats.end())
        formats.push_back(format);
  return formats;
}

} // namespace xs
