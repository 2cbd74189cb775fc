#ifndef XSTITCH_RUNTIME_CPU_CPUEXECUTABLE_H
#define XSTITCH_RUNTIME_CPU_CPUEXECUTABLE_H

// A compiled program loaded on the CPU: its host plan, the kernels resolved
// from the JIT-linked object, and its constants. execute() binds dims, places
// results (in the caller's memory where it can, ResultPlacement.h), takes a
// per-call arena of temporaries from the device's caching allocator, and
// runs the steps: a launch splits its grid of blocks over the
// device's TBB arena, a library step calls LibraryOps, an alias step is a view.
// All per-call state lives in execute(), so several threads may run one
// executable at once.

#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/common/KernelABI.h"
#include "runtime/CachingAllocator.h"
#include "runtime/Executable.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/ObjectLoader.h"
#include "tbb/task_arena.h"

namespace xs {

class CpuExecutable : public Executable {
public:
  /// Checks the plan's structure, loads the object and resolves every launch
  /// variant's symbol. A load failure or a missing symbol is an Internal
  /// error naming the kernel. `options` (the device's; its threads are the
  /// arena's) say how kernels run and what they may call.
  static absl::StatusOr<std::shared_ptr<CpuExecutable>>
  create(CompiledProgram program, std::shared_ptr<CachingAllocator> allocator,
         std::shared_ptr<tbb::task_arena> arena, const CpuDeviceOptions &options);

  const HostPlan &plan() const override { return plan_; }
  std::string deviceName() const override { return deviceName_; }
  absl::StatusOr<RunResult> execute(const RunRequest &request,
                                    RunStats *stats = nullptr) const override;

private:
  CpuExecutable() = default;
  struct CallState;
  absl::Status runSteps(CallState &call, RunStats *stats) const;
  absl::Status launch(const HostStep &step, size_t stepIndex, CallState &call) const;
  absl::Status runLibrary(const HostStep &step, CallState &call) const;

  HostPlan plan_;
  std::unique_ptr<LoadedObject> object_;
  /// Per step, per launch variant, one function per phase.
  std::vector<std::vector<std::vector<CpuKernelFn>>> kernels_;
  /// Per step, per launch variant, its cooperative kernel or null
  /// (HostLaunchVariant::cooperative: the NVPTX simulation's), run once
  /// over the whole grid instead of the phases.
  std::vector<std::vector<CpuKernelFn>> cooperative_;
  /// Per buffer: the uploaded data of Constant buffers.
  std::vector<std::optional<Tensor>> constants_;
  std::shared_ptr<CachingAllocator> allocator_;
  std::shared_ptr<tbb::task_arena> arena_;
  bool flushDenormals_ = true;
  std::string deviceName_;
  int64_t inputAlignment_ = 1;      // CpuDeviceOptions::inputAlignment
  int64_t streamingStoreBytes_ = 0; // CompiledProgram::streamingStoreBytes
};

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_CPUEXECUTABLE_H
