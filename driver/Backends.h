#ifndef XSTITCH_DRIVER_BACKENDS_H
#define XSTITCH_DRIVER_BACKENDS_H

// The backends the compile driver knows, one per device platform
// (Backend.h): the one place that lists them.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/Backend.h"

namespace xs {

/// Every backend, in the order `auto` prefers their devices.
const std::vector<const Backend *> &backends();

/// The backend for `device`'s platform; null where the platform has none
/// (one that only loads code).
const Backend *backendOf(const DeviceSpec &device);

/// The backend for `device`'s platform, resolved for it and `options`. A
/// platform without a backend (one that only loads code) is an
/// InvalidArgument error.
absl::StatusOr<std::unique_ptr<BackendTarget>> resolveBackendTarget(const DeviceSpec &device,
                                                                    const CodegenOptions &options);

/// The first present device of a backend that has such devices (a GPU),
/// else nullopt: what `auto` picks before the CPU.
std::optional<std::string> presentAcceleratorDevice();

/// Whether `device` names a GPU that code is emitted or planned for
/// (Backend::gpuTarget: a preset or a present GPU).
bool isGpuTarget(const DeviceSpec &device);

/// How those GPUs are written, for messages: "a preset (sm_70, ...,
/// gfx1100), cuda[:N] or hip[:N]".
std::string gpuTargetSyntax();

/// Every --emit format of any backend, each once, in the backends' order.
std::vector<std::string_view> allEmitFormats();

} // namespace xs

#endif // XSTITCH_DRIVER_BACKENDS_H
