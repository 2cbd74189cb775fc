#include "runtime/devices/Bundles.h"

#include <chrono>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "runtime/cpu/HostCpuFeatures.h"

namespace xs {
namespace {

bool isX86Code(const CompiledProgram &program) { return program.objectFormat == "x86_64-elf"; }

/// Whether code for the bundle's device can run on `device`: both of one
/// code family (DevicePlatform::codeFamily).
absl::Status checkDevice(const ProgramFile &file, const std::string &name,
                         const DeviceSpec &device) {
  absl::StatusOr<DeviceSpec> compiledFor = parseDeviceName(file.header.device);
  if (!compiledFor.ok() || platformOf(*compiledFor).codeFamily != platformOf(device).codeFamily ||
      platformOf(device).load == nullptr)
    return absl::FailedPreconditionError(
        strCat(name, ": the bundle holds code for ", file.header.device, ", which does not run on ",
               device.name, "; compile one for it: xstitch-compile MODEL --device=", device.name));
  if (!isX86Code(file.program))
    return absl::OkStatus();
  std::vector<std::string> missing = missingCpuFeatures(file.header.features);
  if (!missing.empty())
    return absl::FailedPreconditionError(
        strCat(name, ": the bundle's code is for a CPU (", file.header.cpu, ") with ",
               absl::StrJoin(missing, ", "),
               ", which this CPU lacks; compile one for this "
               "machine (xstitch-compile without --cpu), or for a CPU both have (--cpu=NAME)"));
  return absl::OkStatus();
}

} // namespace

std::string defaultBundleDevice(const ProgramFileHeader &header) {
  absl::StatusOr<DeviceSpec> device = parseDeviceName(header.device);
  if (!device.ok())
    return header.device; // loading says what is wrong with it
  std::string_view runOn = platformOf(*device).defaultRunDevice;
  return runOn.empty() ? header.device : std::string(runOn);
}

absl::StatusOr<LoadedBundle> loadBundle(const std::string &path, LoadOptions options) {
  auto start = std::chrono::steady_clock::now();
  XS_ASSIGN_OR_RETURN(FileBytes bytes, mapWholeFile(path));
  // The mapping stays with the program: its constants are used in place.
  XS_ASSIGN_OR_RETURN(ProgramFile file, decodeProgramFile(bytes.bytes, path, bytes.owner));
  if (file.header.kind != "bundle")
    return absl::InvalidArgumentError(strCat(path, ": a program file of kind '", file.header.kind,
                                             "', not a bundle (xstitch-compile writes bundles)"));
  if (options.device.empty())
    options.device = defaultBundleDevice(file.header);
  options.flushDenormals = file.header.flushDenormals;
  XS_ASSIGN_OR_RETURN(DeviceSpec device, parseDeviceName(options.device));
  XS_RETURN_IF_ERROR(checkDevice(file, path, device));
  LoadedBundle loaded;
  loaded.header = file.header;
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      loadCompiledProgram(std::move(file.program), device, options);
  if (!executable.ok())
    return absl::Status(executable.status().code(),
                        strCat(path, ": ", executable.status().message()));
  loaded.executable = *std::move(executable);
  loaded.loadSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return loaded;
}

} // namespace xs
