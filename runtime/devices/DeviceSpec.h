#ifndef XSTITCH_RUNTIME_DEVICES_DEVICESPEC_H
#define XSTITCH_RUNTIME_DEVICES_DEVICESPEC_H

// A device name parsed once (parseDeviceName, runtime/devices/Devices.h)
// into what it names. Everything after the parse branches on `platform`
// through the registries (DevicePlatform.h for loading, driver/Backends.h
// for compiling), never on how the name is spelled.

#include <string>

namespace xs {

struct DeviceSpec {
  /// The registries' key: "cpu", "cuda", "nvptx-sim", "nvptx" (a GPU preset
  /// such as sm_90: code for it compiles anywhere and runs on a GPU of it).
  std::string platform;
  /// The canonical name ("cuda:0" for "cuda"): what cache keys, program
  /// headers and reports record.
  std::string name;
  /// The GPU of a platform of present GPUs (cuda:N).
  int ordinal = 0;
  /// The GPU preset a simulation or a compile target is for ("sm_90").
  std::string preset;
  /// A simulation launches variants of several phases one launch per phase
  /// (as a GPU without cooperative launches does), not as one kernel.
  bool phaseLaunches = false;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICES_DEVICESPEC_H
