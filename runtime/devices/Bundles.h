#ifndef XSTITCH_RUNTIME_DEVICES_BUNDLES_H
#define XSTITCH_RUNTIME_DEVICES_BUNDLES_H

// AOT bundles (`xstitch-compile MODEL -o model.xsb`): a program file
// (runtime/ProgramFile.h) of kind "bundle" holding a compiled function's host
// plan and kernels. Loading one checks that this machine can run its code
// (x86 code: the CPU features it was generated for; GPU code: a device of
// that kind) before anything of it runs, and needs no compiler.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/Executable.h"
#include "runtime/ProgramFile.h"
#include "runtime/devices/Devices.h"

namespace xs {

struct LoadedBundle {
  std::shared_ptr<Executable> executable;
  ProgramFileHeader header;
  double loadSeconds = 0; // reading, checking and loading
};

/// The device a bundle's code runs on when the caller names none: "cpu" for
/// x86 code, "cuda:0" for PTX, the simulation for its code.
std::string defaultBundleDevice(const ProgramFileHeader &header);

/// Reads the bundle at `path` and loads it on `options.device` (empty: the
/// bundle's default device), in the float mode it was compiled for. Errors name the file: not a
/// bundle, another format version, truncated or corrupt (DataLoss), code for a CPU with features
/// this one lacks or for another kind of device (FailedPrecondition, saying how to compile one that
/// runs here).
absl::StatusOr<LoadedBundle> loadBundle(const std::string &path, LoadOptions options);

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_BUNDLES_H
