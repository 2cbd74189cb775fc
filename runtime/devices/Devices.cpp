#include "runtime/devices/Devices.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "runtime/SpeculatedExecutable.h"

namespace xs {

absl::StatusOr<DeviceSpec> parseDeviceName(std::string_view name) {
  std::vector<std::string> syntaxes;
  for (const DevicePlatform *platform : devicePlatforms()) {
    if (std::optional<absl::StatusOr<DeviceSpec>> parsed = platform->parse(name))
      return *std::move(parsed);
    syntaxes.emplace_back(platform->syntax);
  }
  return absl::InvalidArgumentError(
      strCat("unknown device '", name, "'; devices are ", absl::StrJoin(syntaxes, ", ")));
}

bool isPresentGpu(const DeviceSpec &device) {
  return device.platform == cudaPlatform().name || device.platform == hipPlatform().name;
}

bool isPresentGpuName(std::string_view name) {
  absl::StatusOr<DeviceSpec> device = parseDeviceName(name);
  return device.ok() && isPresentGpu(*device);
}

absl::StatusOr<std::shared_ptr<Executable>>
loadCompiledProgram(CompiledProgram program, const DeviceSpec &device, const LoadOptions &options) {
  if (!program.speculations.empty()) {
    std::vector<SpeculatedExecutable::Variant> variants;
    for (SpeculatedProgram &speculated : program.speculations) {
      XS_ASSIGN_OR_RETURN(std::shared_ptr<Executable> executable,
                          loadCompiledProgram(std::move(speculated.program), device, options));
      variants.push_back({std::move(speculated.assumptions), std::move(executable)});
    }
    return std::make_shared<SpeculatedExecutable>(std::move(program.host), std::move(variants));
  }
  const DevicePlatform &platform = platformOf(device);
  if (platform.load == nullptr)
    return absl::InvalidArgumentError(
        platform.defaultRunDevice.empty()
            ? strCat(device.name, " is a compile target; no device of this build runs its code")
            : strCat(device.name, " is a compile target; run its code on ",
                     platform.defaultRunDevice));
  return platform.load(std::move(program), device, options);
}

absl::StatusOr<std::shared_ptr<Executable>> loadCompiledProgram(CompiledProgram program,
                                                                const LoadOptions &options) {
  XS_ASSIGN_OR_RETURN(DeviceSpec device, parseDeviceName(options.device));
  return loadCompiledProgram(std::move(program), device, options);
}

} // namespace xs
