#include "driver/NvidiaBackends.h"

#include "backends/nvptx/NvptxBackend.h"
#include "backends/nvptx/NvptxSimulation.h"
#include "driver/CpuBackend.h"
#include "driver/GpuBackendTarget.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

/// PTX for one GPU's limits, or its simulation.
class NvptxBackendTarget final : public GpuBackendTarget {
public:
  NvptxBackendTarget(NvptxOptions nvptx, std::optional<X86Options> simulated)
      : GpuBackendTarget(nvptxTargetDescription(nvptx),
                         strCat("nvptx ", nvptx.limits.arch, " ", nvptx.limits.part), "PTX",
                         std::move(simulated)),
        nvptx_(std::move(nvptx)) {}

  absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                   std::string_view format) const override {
    return format == "nvptx-llvm" ? emitNvptxLLVMIR(plan, nvptx_) : emitPtx(plan, nvptx_);
  }

private:
  absl::StatusOr<CompiledProgram> generateCode(const ProgramPlan &plan) const override {
    XS_ASSIGN_OR_RETURN(std::string ptx, emitPtx(plan, nvptx_));
    return CompiledProgram{plan.host, "ptx", {std::move(ptx)}};
  }
  absl::StatusOr<CompiledProgram> simulate(const ProgramPlan &plan,
                                           const X86Options &host) const override {
    return compileNvptxSimulation(plan, nvptx_, host);
  }

  NvptxOptions nvptx_;
};

NvptxOptions nvptxOptions(NvidiaDeviceLimits limits, const CodegenOptions &options) {
  NvptxOptions nvptx;
  nvptx.limits = std::move(limits);
  nvptx.flushDenormals = options.flushDenormals;
  return nvptx;
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveGpu(const DeviceSpec &device,
                                                          const CodegenOptions &options) {
  // A present GPU's limits are queried once, for planning and code generation.
  XS_ASSIGN_OR_RETURN(NvidiaDeviceLimits limits, queryNvidiaLimits(device.ordinal));
  return std::make_unique<NvptxBackendTarget>(nvptxOptions(std::move(limits), options),
                                              std::nullopt);
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolvePreset(const DeviceSpec &device,
                                                             const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(NvidiaDeviceLimits limits, nvidiaPreset(device.preset));
  return std::make_unique<NvptxBackendTarget>(nvptxOptions(std::move(limits), options),
                                              std::nullopt);
}

absl::StatusOr<std::unique_ptr<BackendTarget>> resolveSimulation(const DeviceSpec &device,
                                                                 const CodegenOptions &options) {
  XS_ASSIGN_OR_RETURN(NvidiaDeviceLimits limits, nvidiaPreset(device.preset));
  return std::make_unique<NvptxBackendTarget>(nvptxOptions(std::move(limits), options),
                                              x86OptionsFrom(options));
}

} // namespace

const Backend &nvidiaGpuBackend() {
  static const Backend backend{.platform = "cuda",
                               .emitFormats = {"ptx", "nvptx-llvm"},
                               .resolve = resolveGpu,
                               .presentDevice = presentNvidiaDevice,
                               .gpuTarget = true};
  return backend;
}

const Backend &nvidiaPresetBackend() {
  static const Backend backend{.platform = "nvptx",
                               .emitFormats = {"ptx", "nvptx-llvm"},
                               .resolve = resolvePreset,
                               .gpuTarget = true,
                               .presetNames = nvidiaPresetNames};
  return backend;
}

const Backend &nvptxSimulationBackend() {
  static const Backend backend{
      .platform = "nvptx-sim", .emitFormats = {"ptx", "nvptx-llvm"}, .resolve = resolveSimulation};
  return backend;
}

} // namespace xs
