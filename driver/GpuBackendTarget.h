#ifndef XSTITCH_DRIVER_GPUBACKENDTARGET_H
#define XSTITCH_DRIVER_GPUBACKENDTARGET_H

// What the GPU backends' targets share (NvidiaBackends.cpp,
// AmdBackends.cpp): the code for one GPU's limits, or, `simulated`, the same
// kernels lowered to host code for the lane scheduler, whose program then
// records the host CPU it was generated for.

#include <optional>
#include <string>

#include "backends/x86/X86Backend.h"
#include "driver/Backend.h"

namespace xs {

class GpuBackendTarget : public BackendTarget {
public:
  /// `gpu` names the GPU in cache keys ("nvptx sm_90 H100 SXM"); `code`
  /// what the GPU's code is ("PTX").
  GpuBackendTarget(TargetDescription description, std::string gpu, std::string_view code,
                   std::optional<X86Options> simulated)
      : description_(std::move(description)), gpu_(std::move(gpu)), code_(code),
        simulated_(std::move(simulated)) {}

  const TargetDescription &description() const override { return description_; }
  std::string identity() const override;
  std::optional<HostCpuName> hostCpu() const override;
  std::string_view codeName() const override { return simulated_ ? "simulated code" : code_; }
  absl::StatusOr<CompiledProgram> generate(const ProgramPlan &plan) const override {
    return simulated_ ? simulate(plan, *simulated_) : generateCode(plan);
  }

protected:
  /// The program with the GPU's code.
  virtual absl::StatusOr<CompiledProgram> generateCode(const ProgramPlan &plan) const = 0;
  /// The program with the simulation's host code.
  virtual absl::StatusOr<CompiledProgram> simulate(const ProgramPlan &plan,
                                                   const X86Options &host) const = 0;

private:
  TargetDescription description_;
  std::string gpu_;
  std::string_view code_;
  std::optional<X86Options> simulated_;
};

} // namespace xs

#endif // XSTITCH_DRIVER_GPUBACKENDTARGET_H
