#ifndef XSTITCH_RUNTIME_GPU_GPUEXECUTABLE_H
#define XSTITCH_RUNTIME_GPU_GPUEXECUTABLE_H

// A compiled program loaded on a GPU (cuda:N, hip:N): its host plan, the
// module the vendor's driver loaded from the program's code object (PTX,
// which the NVIDIA driver JIT-compiles for the GPU present; an HSA code
// object on AMD), every launch variant's kernels and the constants in device
// memory. execute() binds dims on the host, takes the call's device memory
// (the arena of temporaries, one table of the kernels' dims and buffer
// pointers, and inputs and outputs the caller does not give in device
// memory) from the context's caching allocator, queues copies and launches
// on the caller's stream or one of the pool, and waits for that stream.
// Device-resident inputs are read and outputs written where they are
// (RunRequest::deviceMemory); host ones are copied in and out. A launch runs
// the variant's grid in blocks of its lanes (HostLaunchVariant::lanes)
// threads with its block buffers as dynamic shared memory; phases are
// launches one after another. Library steps (dot) run through the vendor's
// BLAS on the call's stream (GpuMatmul) where it is installed and multiplies
// the element type; elsewhere on the host through the CPU's library ops,
// their operands copied there and the result back. A run on the caller's
// stream with every tensor on the GPU returns once queued; other runs wait
// for their stream. All per-call state lives in execute(); nothing here
// knows the vendor (GpuDriver.h).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/Executable.h"
#include "runtime/gpu/GpuContext.h"

namespace xs::gpu {

class GpuExecutable : public Executable {
public:
  /// Checks the plan, loads the code object (a driver that refuses it is an
  /// Internal error with the driver's log where it keeps one) and resolves every variant's kernels
  /// (a missing one is an Internal error naming it), and uploads the constants. A variant of
  /// several phases runs as one cooperative launch of its cooperative kernel where the GPU supports
  /// them and at least one block of it fits a multiprocessor, with min(grid, blocks that fit at
  /// once) blocks (the kernel strides over the rest); elsewhere as a launch per phase.
  static absl::StatusOr<std::shared_ptr<GpuExecutable>> create(CompiledProgram program,
                                                               std::shared_ptr<GpuContext> context);
  ~GpuExecutable() override;

  const HostPlan &plan() const override { return plan_; }
  std::string deviceName() const override { return context_->name(); }
  absl::StatusOr<RunResult> execute(const RunRequest &request,
                                    RunStats *stats = nullptr) const override;

private:
  GpuExecutable() = default;
  struct Kernel {
    FunctionHandle function = nullptr;
    int staticSharedBytes = 0; // the kernel's own shared memory (cross-lane reduce slots)
  };
  struct CallState;
  absl::Status runSteps(CallState &call, RunStats *stats) const;
  absl::Status launch(const HostStep &step, size_t stepIndex, CallState &call) const;
  absl::Status runLibrary(const HostStep &step, CallState &call) const;
  /// Queues a dot step through the vendor's BLAS; false where the host runs
  /// it (not a dot, an element type the library lacks, K = 0, no library).
  absl::StatusOr<bool> runDotOnGpu(const HostStep &step, CallState &call) const;

  HostPlan plan_;
  std::shared_ptr<GpuContext> context_;
  ModuleHandle module_ = nullptr;
  /// Per step, per launch variant, one kernel per phase.
  std::vector<std::vector<std::vector<Kernel>>> kernels_;
  /// Per step, per launch variant, its cooperative kernel
  /// (HostLaunchVariant::cooperative; function null when there is none).
  std::vector<std::vector<Kernel>> cooperative_;
  /// Per buffer: the device copy of Constant buffers.
  std::vector<std::shared_ptr<void>> constants_;
};

} // namespace xs::gpu

#endif // XSTITCH_RUNTIME_GPU_GPUEXECUTABLE_H
