#ifndef XSTITCH_DRIVER_BACKEND_H
#define XSTITCH_DRIVER_BACKEND_H

// What the compile driver (Compiler.h) asks of a backend, so that it
// branches on no vendor: a Backend serves one device platform
// (runtime/devices/DevicePlatform.h) and, for one parsed device and the
// options, resolves a BackendTarget: the target as the planner sees it, the
// code generation, and the textual forms --emit prints. Each is the glue
// between a code generator under backends/ and, for present GPUs, what the
// runtime queries of them (the driver is the layer that sees both): one file
// per backend here (CpuBackend.cpp, NvidiaBackends.cpp), listed once in
// Backends.cpp.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostPlan.h"
#include "runtime/devices/DeviceSpec.h"
#include "transforms/PlanProgram.h"
#include "transforms/TargetDescription.h"

namespace xs {

/// The compile options a backend reads (driver/Compiler.h's CompileOptions
/// says what each means).
struct CodegenOptions {
  std::string cpu;      // LLVM CPU for x86 code; empty: the host's
  std::string features; // LLVM features for x86 code; empty: the host's
  int threads = 0;
  int64_t blockElements = 0;
  bool flushDenormals = true;
  int64_t streamingStoreBytes = 0;
  bool amdgpuBpermute = false; // CompileOptions::amdgpuBpermute
};

/// The host CPU code is generated for (CPU code and simulations): program
/// files record it, and the loader checks the CPU it runs on has its
/// features.
struct HostCpuName {
  std::string cpu;
  std::string features;
};

/// One device's code generation, resolved once per compile (a present GPU's
/// limits are queried once).
class BackendTarget {
public:
  virtual ~BackendTarget() = default;
  /// The target as the planner sees it.
  virtual const TargetDescription &description() const = 0;
  /// What the code is for beyond the options, in cache keys: "x86 znver4
  /// +avx2,...", "nvptx sm_90 H200".
  virtual std::string identity() const = 0;
  /// The host CPU its code runs on, where it runs on the host.
  virtual std::optional<HostCpuName> hostCpu() const { return std::nullopt; }
  /// What generate() makes, for progress: "code", "PTX".
  virtual std::string_view codeName() const = 0;
  /// The kernels of `plan` (planned with description()) as a program.
  virtual absl::StatusOr<CompiledProgram> generate(const ProgramPlan &plan) const = 0;
  /// `plan`'s kernels as text in one of its Backend's emitFormats.
  virtual absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                           std::string_view format) const = 0;
};

struct Backend {
  /// The device platform it compiles for (DeviceSpec::platform).
  std::string_view platform;
  /// The textual forms of code BackendTarget::emit prints (--emit), the
  /// usual one first.
  std::vector<std::string_view> emitFormats;
  /// The target for `device` (a preset it does not have, or a GPU that is
  /// not there, is an error saying so).
  absl::StatusOr<std::unique_ptr<BackendTarget>> (*resolve)(const DeviceSpec &device,
                                                            const CodegenOptions &options);
  /// Where the platform has devices that may be absent (GPUs): the one
  /// `auto` picks when present ("cuda:0"), else nullopt. Null for
  /// platforms that are always there or never run code.
  std::optional<std::string> (*presentDevice)() = nullptr;
  /// Its devices are GPUs that code is emitted or planned for by name
  /// (xstitch-run --target): presets and present GPUs, not simulations.
  bool gpuTarget = false;
  /// The presets it has, for messages; null where it has none.
  std::vector<std::string> (*presetNames)() = nullptr;
};

} // namespace xs

#endif // XSTITCH_DRIVER_BACKEND_H
