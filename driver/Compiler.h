#ifndef XSTITCH_DRIVER_COMPILER_H
#define XSTITCH_DRIVER_COMPILER_H

// The compile driver: text IR (or a Module) -> canonicalization pipeline ->
// plans -> backend -> loaded Executable on a device, with an in-memory
// compile cache keyed by a hash of the canonical IR, the target and the
// options. Tools and (later) the C API call this; nothing below it knows
// about them.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/CompileCache.h"
#include "driver/DiskCache.h"
#include "ir/IR.h"
#include "runtime/Executable.h"
#include "transforms/PlanProgram.h"

namespace xs {

struct CompileOptions {
  /// A device name (runtime/devices/Devices.h), parsed once per call and
  /// compiled for by its platform's backend (driver/Backends.h): "cpu";
  /// "cuda" / "cuda:N": GPU N through the CUDA driver, planned with its
  /// queried limits; "nvptx-sim[:sm_XX]": the code generated for that
  /// NVIDIA preset, run on the CPU thread by thread; "sm_XX": code for a
  /// preset, compiled without a GPU (compileProgram, compileBundle).
  std::string device = "cpu";
  bool fusion = true; // false: one kernel per op (--no-fusion)
  /// Kernels check what the interpreter refuses (PlanOptions::dataChecks);
  /// false only to measure what that costs.
  bool dataChecks = true;
  int threads = 0; // CPU workers; 0: all cores
  /// CPU kernels flush subnormal floats to zero (runtime/cpu/DenormalFlush.h;
  /// false: --keep-denormals).
  bool flushDenormals = true;
  /// On a GPU, each launch is waited for, so a faulting kernel is named
  /// (--sync-launches; gpu::GpuContextOptions::syncLaunches).
  bool syncLaunches = false;
  /// Elements a CPU block gets at least; 0: the target's default. Small
  /// values make the split and packed mappings of large shapes appear at
  /// small ones (tests and the random-graph fuzzer use them).
  int64_t blockElements = 0;
  /// CPU kernels write results of at least this many bytes with streaming
  /// stores (backends/x86/StreamingStores.h); 0: half the host's last-level
  /// cache; negative: never (--streaming-stores).
  int64_t streamingStoreBytes = 0;
  /// AMD GPU kernels' butterflies use ds_bpermute on every step instead of
  /// DPP, ds_swizzle or v_permlanex16 and readlane (--amdgpu-shuffles=
  /// bpermute; backends/amdgpu/AmdgpuTarget.h), to compare the two on a GPU.
  bool amdgpuBpermute = false;
  /// LLVM CPU name and features for x86 code; empty: the host's. Golden
  /// tests of emitted IR fix these so that the output does not depend on the
  /// machine.
  std::string cpu;
  std::string features;
  /// false: compile afresh and leave the caches alone (cold compile-time
  /// benchmarks). Not part of the cache key.
  bool useCache = true;
  /// Dims substituted as constants before planning (transforms/
  /// SpecializeDims.h): the static-shape baseline the symbolic compile is
  /// measured against. The executable then runs only at these values.
  DimBindings specialize;
  /// The persistent compile cache (driver/DiskCache.h); its directory empty:
  /// none. Tools and the C API fill it from their flags and the environment
  /// (diskCacheOptionsFor). Not part of the cache key.
  DiskCacheOptions diskCache;
  /// Called on the compiling thread as a compile that misses the caches
  /// enters each stage ("planning", "generating code for 12 kernels",
  /// "loading"), for progress displays (tools/common/TerminalProgress.h).
  /// Not part of the cache key.
  std::function<void(std::string_view stage)> progress;
};

/// Where an executable came from.
enum class ExecutableSource : uint8_t {
  Compiled, // compiled by this call
  Memory,   // the in-memory compile cache held it (or another caller was compiling it)
  Disk,     // the persistent compile cache held it
  Bundle,   // loaded from an AOT bundle
};
std::string_view executableSourceName(ExecutableSource source); // "compiled", "memory", ...

/// What compiling produced, for reports.
struct CompileInfo {
  double compileSeconds = 0;
  bool cacheHit = false; // source is Memory
  ExecutableSource source = ExecutableSource::Compiled;
  /// Where a compile that missed the cache spent its time (zero on a hit):
  /// planning (x86TargetDescription and the stitch planner), LLVM
  /// (emission, optimization and code generation, on all cores), and
  /// loading the objects into the runtime.
  double planSeconds = 0;
  double llvmSeconds = 0;
  double loadSeconds = 0;
  std::vector<std::string> kernels; // plan names, in launch order
  /// Programs of a speculated function (transforms/SpeculateBroadcasts.h);
  /// `kernels` are the first one's. 1 without speculation.
  int variants = 1;
  /// What went wrong without failing the compile (an unreadable persistent
  /// cache entry, a cache directory that cannot be written), for the caller
  /// to show.
  std::vector<std::string> warnings;
};

/// Compiles `function` (already canonicalized by the default pipeline; see
/// transforms/Pass.h) and loads it. Thread-safe; repeated calls with the same
/// canonical IR and options return the cached Executable (the process's
/// cache).
absl::StatusOr<std::shared_ptr<Executable>> compileFunction(const Function &function,
                                                            const CompileOptions &options,
                                                            CompileInfo *info = nullptr);
/// The same with the executables kept in `cache` (a C API context's).
absl::StatusOr<std::shared_ptr<Executable>> compileFunction(const Function &function,
                                                            const CompileOptions &options,
                                                            CompileCache &cache,
                                                            CompileInfo *info = nullptr);

/// `function` compiled for `options.device` (a preset NVIDIA target such as
/// sm_90 too: no GPU needed), not loaded: what AOT bundles and persistent
/// cache entries hold. `stages` (optional) gets the plan and LLVM times.
absl::StatusOr<CompiledProgram> compileProgram(const Function &function,
                                               const CompileOptions &options,
                                               CompileInfo *stages = nullptr);

/// Loads a compiled program on `options.device` (its threads and float mode
/// too).
absl::StatusOr<std::shared_ptr<Executable>> loadProgram(CompiledProgram program,
                                                        const CompileOptions &options);

/// An AOT bundle (runtime/devices/Bundles.h) of `function` for
/// `options.device`, which may be a preset NVIDIA target (sm_90: no GPU
/// needed). `inputNames` and `outputNames` (empty: the function's) are what
/// callers know the inputs and results by; `source` names the model.
absl::StatusOr<ProgramFile> compileBundle(const Function &function, const CompileOptions &options,
                                          std::vector<std::string> inputNames,
                                          std::vector<std::string> outputNames,
                                          const std::string &source, CompileInfo *stages = nullptr);

/// The header a bundle or cache entry of `function` compiled with `options`
/// carries: the device, the resolved CPU and features for x86 code, the
/// float mode, the producer's version, and (`key`) everything that decides
/// the code.
ProgramFileHeader programFileHeader(const Function &function, const CompileOptions &options);

/// The plans `compileFunction` would build (for --explain and reports);
/// options.device may be a compile target (sm_90: no GPU needed).
absl::StatusOr<ProgramPlan> planFunction(const Function &function, const CompileOptions &options);

/// The textual forms of code options.device's backend prints, the usual one
/// first: llvm and llvm-unopt (x86 LLVM IR, optimized or as emitted) for the
/// CPU, ptx and nvptx-llvm for NVIDIA GPUs, presets and the simulation
/// (its preset's). Empty where the device does not resolve.
std::vector<std::string_view> emitFormats(const CompileOptions &options);

/// The kernels of `function` for options.device (a compile target too) in
/// one of emitFormats(options) (--emit, golden tests).
absl::StatusOr<std::string> emitKernels(const Function &function, const CompileOptions &options,
                                        std::string_view format);

} // namespace xs

#endif // XSTITCH_DRIVER_COMPILER_H
