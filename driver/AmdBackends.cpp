#include "driver/AmdBackends.h"

#include "backends/amdgpu/AmdgpuBackend.h"
#include "backends/amdgpu/AmdgpuSimulation.h"
#include "driver/AmdTargets.h"
#include "driver/CpuBackend.h"
#include "driver/GpuBackendTarget.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

/// HSA code objects for one GPU's limits, or their simulation.
class AmdgpuBackendTarget final : public GpuBackendTarget {
public:
  AmdgpuBackendTarget(AmdgpuOptions amdgpu, std::optional<X86Options> simulated)
      : GpuBackendTarget(amdgpuTargetDescriptionOf(amdgpu),
                         strCat("amdgpu ", amdgpu.limits.arch, " ", amdgpu.limits.part), "HSACO",
                         std::move(simulated)),
        amdgpu_(std::move(amdgpu)) {}

  absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                   std::string_view format) const override {
    if (format == "amdgpu-llvm")
      return emitAmdgpuLLVMIR(plan, amdgpu_);
    if (format == "hsaco")
      return emitHsaco(plan, amdgpu_);
    return emitAmdgcn(plan, amdgpu_);
  }

private:
  absl::StatusOr<CompiledProgram> generateCode(const ProgramPlan &plan) const override {
    XS_ASSIGN_OR_RETURN(std::string hsaco, emitHsaco(plan, amdgpu_));
    return CompiledProgram{plan.host, "hsaco", {std::move(hsaco)}};
  }
  absl::StatusOr<CompiledProgram> simulate(const ProgramPlan &plan,
                                           const X86Options &host) const override {
    return compileAmdgpuSimulation(plan, amdgpu_, host);
  }

  AmdgpuOptions amdgpu_;
};

AmdgpuOptions amdgpuOptions(AmdgpuDeviceLimits limits, const CodegenOptions &options) {
  AmdgpuOptions amdgpu;
  amdgpu.limits = std::move(limits);
  amdgpu.flushDenormals = options.flushDenormals;
  amdgpu.shuffles = options.amdgpuBpermute ? AmdgpuShuffles::Bpermute : AmdgpuShuffles::Dpp;
  return amdgpu;
}

absl::StatusOr<AmdgpuOptions> presetOptions(const DeviceSpec &device,
                                            const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(AmdgpuDeviceLimits limits, amdgpuPreset(device.preset));
  return amdgpuOptions(std::move(limits), options);
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveGpu(const DeviceSpec &device,
                                                          const CodegenOptions &options) {
  // A present GPU's limits are queried once, for planning and code generation.
  XS_ASSIGN_OR_RETURN(AmdgpuDeviceLimits limits, queryAmdgpuLimits(device.ordinal));
  return std::make_unique<AmdgpuBackendTarget>(amdgpuOptions(std::move(limits), options),
                                               std::nullopt);
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

const Backend &amdGpuBackend() {
  static const Backend backend{.platform = "hip",
                               .emitFormats = {"amdgcn", "hsaco", "amdgpu-llvm"},
                               .resolve = resolveGpu,
                               .presentDevice = presentAmdDevice,
                               .gpuTarget = true};
  return backend;
}

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
