#ifndef XSTITCH_RUNTIME_DEVICE_H
#define XSTITCH_RUNTIME_DEVICE_H

// A device: where compiled programs are loaded and run. cpu now; cuda and hip
// implement the same interface.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/Executable.h"

namespace xs {

class Device {
public:
  virtual ~Device() = default;
  virtual std::string name() const = 0; // "cpu", "cuda:0"
  /// Loads a compiled program (object code or PTX plus its host plan). A
  /// program whose code does not load or lacks a symbol is an internal error
  /// naming the kernel.
  virtual absl::StatusOr<std::shared_ptr<Executable>> load(CompiledProgram program) = 0;
  /// false once the device cannot run anything any more (a GPU whose
  /// context a kernel fault left unusable): the process's device cache then
  /// replaces it with a fresh one at the next load.
  virtual bool usable() const { return true; }
};

} // namespace xs

#endif // XSTITCH_RUNTIME_DEVICE_H
