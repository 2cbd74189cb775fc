// xs_executable_compile: a module's function compiled for a device through
// the context's compile caches (in memory, then on disk).

#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "api/ApiObjects.h"
#include "api/DLPackTensors.h"
#include "driver/Compiler.h"
#include "driver/DeviceNames.h"
#include "ir/Diagnostics.h"
#include "runtime/devices/Devices.h"

using namespace xs;
using namespace xs::api;

namespace {

absl::StatusOr<const Function *> chooseFunction(const xs_module_s &module, const char *name) {
  const Module &m = *module.module;
  if (name != nullptr) {
    std::string_view bare = name[0] == '@' ? name + 1 : name;
    if (const Function *f = m.lookup(bare))
      return f;
    return absl::NotFoundError(strCat("the module has no function @", bare, " (it has @",
                                      absl::StrJoin(module.functionNames, ", @"), ")"));
  }
  if (m.functions().size() == 1)
    return m.functions()[0].get();
  if (const Function *f = m.lookup("main"))
    return f;
  if (m.functions().empty())
    return absl::InvalidArgumentError("the module has no function");
  return absl::InvalidArgumentError(strCat("the module has several functions (@",
                                           absl::StrJoin(module.functionNames, ", @"),
                                           "); name one in xs_compile_options_t::function"));
}

/// "B=8,S=128" -> {B: 8, S: 128}.
absl::StatusOr<DimBindings> parseSpecialization(std::string_view text) {
  DimBindings dims;
  for (absl::string_view item :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ',', absl::SkipWhitespace())) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(item, '=');
    int64_t value = 0;
    std::string symbol(absl::StripAsciiWhitespace(kv.first));
    if (symbol.empty() || !absl::SimpleAtoi(kv.second, &value) || value < 0)
      return absl::InvalidArgumentError(strCat("specialize: '", item,
                                               "' is not SYM=N with a dim N >= 0; write "
                                               "\"B=8,S=128\""));
    dims[symbol] = value;
  }
  return dims;
}

} // namespace

extern "C" {

xs_status_t xs_executable_compile(xs_context_t *context, const xs_module_t *module,
                                  const xs_compile_options_t *options,
                                  xs_executable_t **out_executable) {
  return guarded([&]() -> absl::Status {
    XS_ASSIGN_OR_RETURN(ApiObject * contextObject,
                        lookupObject(context, ObjectKind::Context, "context"));
    XS_ASSIGN_OR_RETURN(ApiObject * moduleObject,
                        lookupObject(module, ObjectKind::Module, "module"));
    if (out_executable == nullptr)
      return absl::InvalidArgumentError("xs_executable_compile: out_executable is NULL");
    auto *ctx = static_cast<xs_context_s *>(contextObject);
    const auto &mod = *static_cast<const xs_module_s *>(moduleObject);
    const char *deviceName = XS_API_FIELD(options, device, nullptr);
    XS_ASSIGN_OR_RETURN(std::string device,
                        resolveDeviceName(deviceName != nullptr ? deviceName : "cpu"));
    XS_ASSIGN_OR_RETURN(const Function *function,
                        chooseFunction(mod, XS_API_FIELD(options, function, nullptr)));

    CompileOptions compile;
    compile.device = device;
    compile.fusion = XS_API_FIELD(options, disable_fusion, 0) == 0;
    compile.flushDenormals = XS_API_FIELD(options, keep_denormals, 0) == 0;
    const char *syncFromEnvironment = std::getenv("XSTITCH_SYNC_LAUNCHES");
    compile.syncLaunches =
        XS_API_FIELD(options, sync_launches, 0) != 0 ||
        (syncFromEnvironment != nullptr && std::string(syncFromEnvironment) == "1");
    compile.threads = ctx->threads;
    compile.diskCache = ctx->diskCache;
    const char *cpu = XS_API_FIELD(options, cpu, nullptr);
    const char *features = XS_API_FIELD(options, cpu_features, nullptr);
    compile.cpu = cpu != nullptr ? cpu : "";
    compile.features = features != nullptr ? features : "";
    compile.blockElements = XS_API_FIELD(options, block_elements, int64_t{0});
    compile.streamingStoreBytes = XS_API_FIELD(options, streaming_store_bytes, int64_t{0});
    if (const char *shuffles = XS_API_FIELD(options, amdgpu_shuffles, nullptr)) {
      std::string_view name(shuffles);
      if (name != "dpp" && name != "bpermute")
        return absl::InvalidArgumentError(
            strCat("amdgpu_shuffles is '", name, "'; use \"dpp\", \"bpermute\" or NULL"));
      compile.amdgpuBpermute = name == "bpermute";
    }
    if (const char *specialize = XS_API_FIELD(options, specialize, nullptr)) {
      XS_ASSIGN_OR_RETURN(compile.specialize, parseSpecialization(specialize));
    }
    if (auto *progress = XS_API_FIELD(options, progress, nullptr)) {
      void *userData = XS_API_FIELD(options, progress_user_data, nullptr);
      compile.progress = [progress, userData](std::string_view stage) {
        progress(userData, std::string(stage).c_str());
      };
    }
    if (compile.blockElements < 0)
      return absl::InvalidArgumentError(strCat("block_elements is ", compile.blockElements,
                                               "; use 0 for the default or a count"));

    auto exe = std::make_unique<xs_executable_s>();
    XS_ASSIGN_OR_RETURN(exe->executable,
                        compileFunction(*function, compile, *ctx->cache, &exe->compileInfo));
    exe->compileWarning = absl::StrJoin(exe->compileInfo.warnings, "; ");
    exe->device = device;
    exe->function = function->name();
    XS_ASSIGN_OR_RETURN(DeviceSpec parsed, parseDeviceName(device));
    exe->gpu = dlpackGpuOf(parsed);
    // ONNX models are called by their graph's names.
    bool onnxNames = mod.module->functions().size() == 1 &&
                     mod.onnxInputNames.size() == function->params().size() &&
                     mod.onnxOutputNames.size() == function->results().size();
    for (size_t i = 0; i < function->params().size(); ++i) {
      const Value &param = *function->params()[i];
      exe->inputs.push_back(describeTensorType(onnxNames ? mod.onnxInputNames[i] : param.name(),
                                               param.type(), exe->symbols));
    }
    for (size_t i = 0; i < function->results().size(); ++i) {
      const FunctionResult &result = function->results()[i];
      exe->outputs.push_back(describeTensorType(onnxNames ? mod.onnxOutputNames[i] : result.name,
                                                result.value->type(), exe->symbols));
    }
    xs_context_retain(ctx);
    exe->context = ctx;
    registerObject(exe.get());
    *out_executable = exe.release();
    return absl::OkStatus();
  });
}

} // extern "C"
