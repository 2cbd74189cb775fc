#include "driver/NvidiaBackends.h"

#include "backends/nvptx/NvptxBackend.h"
#include "backends/nvptx/NvptxSimulation.h"
#include "driver/CpuBackend.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

/// PTX for one GPU's limits; `simulated`: the same kernels lowered to host
/// code for the lane scheduler instead.
class NvptxBackendTarget final : public BackendTarget {
public:
  NvptxBackendTarget(NvptxOptions nvptx, std::optional<X86Options> simulated)
      : nvptx_(std::move(nvptx)), description_(nvptxTargetDescription(nvptx_)),
        simulated_(std::move(simulated)) {}

  const TargetDescription &description() const override { return description_; }
  std::string identity() const override {
    std::string gpu = strCat("nvptx ", nvptx_.limits.arch, " ", nvptx_.limits.part);
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
  std::string_view codeName() const override { return simulated_ ? "simulated code" : "PTX"; }
  absl::StatusOr<CompiledProgram> generate(const ProgramPlan &plan) const override {
    if (simulated_)
      return compileNvptxSimulation(plan, nvptx_, *simulated_);
    XS_ASSIGN_OR_RETURN(std::string ptx, emitPtx(plan, nvptx_));
    return CompiledProgram{plan.host, "ptx", {std::move(ptx)}};
  }
  absl::StatusOr<std::string> emit(const ProgramPlan &plan,
                                   std::string_view format) const override {
    return format == "nvptx-llvm" ? emitNvptxLLVMIR(plan, nvptx_) : emitPtx(plan, nvptx_);
  }

private:
  NvptxOptions nvptx_;
  TargetDescription description_;
  std::optional<X86Options> simulated_;
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
