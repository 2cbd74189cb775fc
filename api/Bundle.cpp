// xs_executable_load_bundle: an AOT bundle loaded without compiling (in
// libxstitch.so and in the runtime-only libxstitch_runtime.so).

#include "api/ApiObjects.h"
#include "api/DLPackTensors.h"
#include "ir/Diagnostics.h"
#include "runtime/SpeculatedExecutable.h"
#include "runtime/devices/Bundles.h"

using namespace xs;
using namespace xs::api;

extern "C" {

xs_status_t xs_executable_load_bundle(xs_context_t *context, const char *path,
                                      const xs_bundle_options_t *options,
                                      xs_executable_t **out_executable) {
  return guarded([&]() -> absl::Status {
    XS_ASSIGN_OR_RETURN(ApiObject * contextObject,
                        lookupObject(context, ObjectKind::Context, "context"));
    if (path == nullptr)
      return absl::InvalidArgumentError("xs_executable_load_bundle: path is NULL");
    if (out_executable == nullptr)
      return absl::InvalidArgumentError("xs_executable_load_bundle: out_executable is NULL");
    auto *ctx = static_cast<xs_context_s *>(contextObject);
    const char *device = XS_API_FIELD(options, device, nullptr);
    LoadOptions load;
    load.device = device != nullptr ? device : "";
    if (load.device == "cuda" || load.device == "hip")
      load.device += ":0";
    load.threads = ctx->threads;
    XS_ASSIGN_OR_RETURN(LoadedBundle bundle, loadBundle(path, load));
    countCompileEvent(CompileEvent::BundleLoad);

    const HostPlan &plan = bundle.executable->plan();
    const ProgramFileHeader &header = bundle.header;
    if (header.inputNames.size() != plan.paramTypes.size() ||
        header.outputNames.size() != plan.outputs.size())
      return absl::DataLossError(strCat(path, ": the bundle names ", header.inputNames.size(),
                                        " inputs and ", header.outputNames.size(),
                                        " outputs, but its program has ", plan.paramTypes.size(),
                                        " and ", plan.outputs.size()));
    auto exe = std::make_unique<xs_executable_s>();
    exe->executable = bundle.executable;
    exe->device = bundle.executable->deviceName();
    exe->function = plan.function;
    XS_ASSIGN_OR_RETURN(DeviceSpec parsed, parseDeviceName(exe->device));
    exe->gpu = dlpackGpuOf(parsed);
    for (size_t i = 0; i < plan.paramTypes.size(); ++i)
      exe->inputs.push_back(
          describeTensorType(header.inputNames[i], plan.paramTypes[i], exe->symbols));
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
      int buffer = plan.outputs[i];
      if (buffer < 0 || static_cast<size_t>(buffer) >= plan.buffers.size())
        return absl::DataLossError(strCat(path, ": output ", i, " names no buffer"));
      exe->outputs.push_back(describeTensorType(
          header.outputNames[i], plan.buffers[static_cast<size_t>(buffer)].type, exe->symbols));
    }
    exe->compileInfo.source = ExecutableSource::Bundle;
    exe->compileInfo.variants = static_cast<int>(speculatedVariantCount(*bundle.executable));
    exe->compileInfo.compileSeconds = bundle.loadSeconds;
    exe->compileInfo.loadSeconds = bundle.loadSeconds;
    for (const HostStep &step : kernelPlan(*bundle.executable).steps)
      if (step.kind == HostStep::Kind::Launch)
        exe->compileInfo.kernels.push_back(step.kernel);
    xs_context_retain(context);
    exe->context = context;
    registerObject(exe.get());
    *out_executable = exe.release();
    return absl::OkStatus();
  });
}

} // extern "C"
