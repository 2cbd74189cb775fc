#include "driver/AmdBackends.h"

#include "backends/amdgpu/AmdgpuBackend.h"
#include "backends/amdgpu/AmdgpuSimulation.h"
#include "driver/CpuBackend.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

/// HSA code objects for one GPU's limits; `simulated`: the same kernels
/// lowered to host code for the lane scheduler instead.
class AmdgpuBackendTarget final : public BackendTarget {
public:
  AmdgpuBackendTarget(AmdgpuOptions amdgpu, std::optional<X86Options> simulated)
      : amdgpu_(std::move(amdgpu)), description_(amdgpuTargetDescriptionOf(amdgpu_)),
        simulated_(std::move(simulated)) {}

  const TargetDescription &description() const override { return description_; }
  std::string identity() const override {
    std::string gpu = strCat("amdgpu ", amdgpu_.limits.arch, " ", amdgpu_.limits.part);
    if (!simulated_)
      return gpu;
    X86Cpu cpu = x86CpuOf(*simulated_);
    return strCat(gpu, " on x86 ", cpu.cpu, " ", cpu.features);
  }
  std::optional<HostCpuName> hostCpu() const override {
    if (!simulated_)
      return std::nullopt;
    X86Cpu cpu = x86CpuOf(*simulated_);
    return HostCpuName{cpu.cpu, cpu.features};
  }
  std::string_view codeName() const override { return simulated_ ? "simulated code" : "HSACO"; }
  absl::StatusOr<CompiledProgram> generate(const ProgramPlan &plan) const override {
    if (simulated_)
      return compileAmdgpuSimulation(plan, amdgpu_, *simulated_);
    XS_ASSIGN_OR_RETURN(std::string hsaco, emitHsaco(plan, amdgpu_));
    return CompiledProgram{plan.host, "hsaco", {std::move(hsaco)}};
  }
  absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                   std::string_view format) const override {
    if (format == "amdgpu-llvm")
      return emitAmdgpuLLVMIR(plan, amdgpu_);
    if (format == "hsaco")
      return emitHsaco(plan, amdgpu_);
    return emitAmdgcn(plan, amdgpu_);
  }

private:
  AmdgpuOptions amdgpu_;
  TargetDescription description_;
  std::optional<X86Options> simulated_;
};

absl::StatusOr<AmdgpuOptions> presetOptions(const DeviceSpec &device,
                                            const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(AmdgpuDeviceLimits limits, amdgpuPreset(device.preset));
  AmdgpuOptions amdgpu;
  amdgpu.limits = std::move(limits);
  amdgpu.flushDenormals = options.flushDenormals;
  return amdgpu;
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolvePreset(const DeviceSpec &device,
                                                             const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(AmdgpuOptions amdgpu, presetOptions(device, options));
  return std::make_unique<AmdgpuBackendTarget>(std::move(amdgpu), std::nullopt);
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveSimulation(const DeviceSpec &device,
                                                                 const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(AmdgpuOptions amdgpu, presetOptions(device, options));
  return std::make_unique<AmdgpuBackendTarget>(std::move(amdgpu), x86OptionsFrom(options));
}

} // namespace

const Backend &amdgpuPresetBackend() {
  static const Backend backend{.platform = "amdgpu",
                               .emitFormats = {"amdgcn", "hsaco", "amdgpu-llvm"},
                               .resolve = resolvePreset,
                               .gpuTarget = true,
                               .presetNames = amdgpuPresetNames};
  return backend;
}

const Backend &amdgpuSimulationBackend() {
  static const Backend backend{.platform = "amdgpu-sim",
                               .emitFormats = {"amdgcn", "hsaco", "amdgpu-llvm"},
                               .resolve = resolveSimulation};
  return backend;
}

} // namespace xs
