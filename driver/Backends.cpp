#include "driver/Backends.h"

#include "driver/CpuBackend.h"
#include "driver/NvidiaBackends.h"
#include "ir/Diagnostics.h"

namespace xs {

const std::vector<const Backend *> &backends() {
  static const std::vector<const Backend *> all = {
      &nvidiaGpuBackend(),
      &x86Backend(),
      &nvptxSimulationBackend(),
      &nvidiaPresetBackend(),
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

} // namespace xs
