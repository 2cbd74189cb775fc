// Executables: a module's function compiled for a device through the
// context's compile cache, and what callers ask of it (inputs, outputs,
// their types and the dim symbols).

#include <algorithm>

#include "absl/strings/str_join.h"
#include "api/ApiObjects.h"
#include "api/DLPackTensors.h"
#include "driver/Compiler.h"
#include "driver/DeviceNames.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"

using namespace xs;
using namespace xs::api;

xs_executable_s::~xs_executable_s() { xs_context_release(context); }

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

TensorDescription describe(std::string name, const TensorType &type,
                           std::vector<std::string> &symbols) {
  TensorDescription desc;
  desc.name = std::move(name);
  desc.type = type.elementType();
  desc.dtype = dlpackType(desc.type);
  for (int64_t i = 0; i < type.rank(); ++i) {
    const DimExpr &d = type.dim(i);
    desc.expressions.push_back(d.str());
    for (const std::string &symbol : d.symbols())
      if (std::find(symbols.begin(), symbols.end(), symbol) == symbols.end())
        symbols.push_back(symbol);
  }
  // The strings are in place: point at them.
  for (int64_t i = 0; i < type.rank(); ++i) {
    std::optional<int64_t> size = type.dim(i).constantValue();
    desc.dims.push_back(
        xs_dim_t{size.value_or(-1), desc.expressions[static_cast<size_t>(i)].c_str()});
  }
  return desc;
}

void fillDescription(const TensorDescription &desc, xs_tensor_desc_t *out) {
  XS_API_SET(out, name, desc.name.c_str());
  XS_API_SET(out, dtype, desc.dtype);
  XS_API_SET(out, ndim, static_cast<int32_t>(desc.dims.size()));
  XS_API_SET(out, dims, desc.dims.data());
}

absl::Status describeTensor(const xs_executable_t *executable, size_t index,
                            xs_tensor_desc_t *out_desc, bool input) {
  XS_ASSIGN_OR_RETURN(ApiObject * object,
                      lookupObject(executable, ObjectKind::Executable, "executable"));
  const auto &exe = *static_cast<const xs_executable_s *>(object);
  if (out_desc == nullptr)
    return absl::InvalidArgumentError("out_desc is NULL");
  if (out_desc->struct_size < sizeof(size_t))
    return absl::InvalidArgumentError(
        "out_desc->struct_size is not set; call xs_tensor_desc_init first");
  const auto &list = input ? exe.inputs : exe.outputs;
  if (index >= list.size())
    return absl::OutOfRangeError(strCat(input ? "input " : "output ", index, " of @", exe.function,
                                        ", which has ", list.size()));
  fillDescription(list[index], out_desc);
  return absl::OkStatus();
}

const xs_executable_s *findExecutable(const xs_executable_t *executable) {
  return static_cast<const xs_executable_s *>(findObject(executable, ObjectKind::Executable));
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
    compile.threads = ctx->threads;
    const char *cpu = XS_API_FIELD(options, cpu, nullptr);
    const char *features = XS_API_FIELD(options, cpu_features, nullptr);
    compile.cpu = cpu != nullptr ? cpu : "";
    compile.features = features != nullptr ? features : "";
    compile.blockElements = XS_API_FIELD(options, block_elements, int64_t{0});
    compile.streamingStoreBytes = XS_API_FIELD(options, streaming_store_bytes, int64_t{0});
    if (compile.blockElements < 0)
      return absl::InvalidArgumentError(strCat("block_elements is ", compile.blockElements,
                                               "; use 0 for the default or a count"));

    auto exe = std::make_unique<xs_executable_s>();
    XS_ASSIGN_OR_RETURN(exe->executable,
                        compileFunction(*function, compile, *ctx->cache, &exe->compileInfo));
    exe->device = device;
    exe->function = function->name();
    exe->onCuda = isCudaDeviceName(device);
    if (exe->onCuda) {
      XS_ASSIGN_OR_RETURN(exe->cudaOrdinal, cudaOrdinal(device));
    }
    // ONNX models are called by their graph's names.
    bool onnxNames = mod.module->functions().size() == 1 &&
                     mod.onnxInputNames.size() == function->params().size() &&
                     mod.onnxOutputNames.size() == function->results().size();
    for (size_t i = 0; i < function->params().size(); ++i) {
      const Value &param = *function->params()[i];
      exe->inputs.push_back(
          describe(onnxNames ? mod.onnxInputNames[i] : param.name(), param.type(), exe->symbols));
    }
    for (size_t i = 0; i < function->results().size(); ++i) {
      const FunctionResult &result = function->results()[i];
      exe->outputs.push_back(describe(onnxNames ? mod.onnxOutputNames[i] : result.name,
                                      result.value->type(), exe->symbols));
    }
    xs_context_retain(ctx);
    exe->context = ctx;
    registerObject(exe.get());
    *out_executable = exe.release();
    return absl::OkStatus();
  });
}

void xs_executable_retain(xs_executable_t *executable) {
  retainObject(executable, ObjectKind::Executable);
}

void xs_executable_release(xs_executable_t *executable) {
  releaseObject(executable, ObjectKind::Executable);
}

const char *xs_executable_device(const xs_executable_t *executable) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr ? exe->device.c_str() : nullptr;
}

const char *xs_executable_function(const xs_executable_t *executable) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr ? exe->function.c_str() : nullptr;
}

size_t xs_executable_input_count(const xs_executable_t *executable) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr ? exe->inputs.size() : 0;
}

size_t xs_executable_output_count(const xs_executable_t *executable) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr ? exe->outputs.size() : 0;
}

xs_status_t xs_executable_input_desc(const xs_executable_t *executable, size_t index,
                                     xs_tensor_desc_t *out_desc) {
  return guarded([&] { return describeTensor(executable, index, out_desc, /*input=*/true); });
}

xs_status_t xs_executable_output_desc(const xs_executable_t *executable, size_t index,
                                      xs_tensor_desc_t *out_desc) {
  return guarded([&] { return describeTensor(executable, index, out_desc, /*input=*/false); });
}

xs_status_t xs_executable_compile_info(const xs_executable_t *executable,
                                       xs_compile_info_t *out_info) {
  return guarded([&]() -> absl::Status {
    XS_ASSIGN_OR_RETURN(ApiObject * object,
                        lookupObject(executable, ObjectKind::Executable, "executable"));
    if (out_info == nullptr)
      return absl::InvalidArgumentError("xs_executable_compile_info: out_info is NULL");
    const CompileInfo &info = static_cast<const xs_executable_s *>(object)->compileInfo;
    XS_API_SET(out_info, compile_seconds, info.compileSeconds);
    XS_API_SET(out_info, cache_hit, info.cacheHit ? 1 : 0);
    XS_API_SET(out_info, plan_seconds, info.planSeconds);
    XS_API_SET(out_info, llvm_seconds, info.llvmSeconds);
    XS_API_SET(out_info, load_seconds, info.loadSeconds);
    XS_API_SET(out_info, kernel_count, static_cast<int32_t>(info.kernels.size()));
    return absl::OkStatus();
  });
}

size_t xs_executable_dim_symbol_count(const xs_executable_t *executable) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr ? exe->symbols.size() : 0;
}

const char *xs_executable_dim_symbol(const xs_executable_t *executable, size_t index) {
  const xs_executable_s *exe = findExecutable(executable);
  return exe != nullptr && index < exe->symbols.size() ? exe->symbols[index].c_str() : nullptr;
}

} // extern "C"
