// Executables: what callers ask of one, however it was made (compiled,
// ExecutableCompile.cpp; loaded from a bundle, Bundle.cpp): inputs,
// outputs, their types, the dim symbols, how it was made.

#include <algorithm>

#include "api/ApiObjects.h"
#include "api/DLPackTensors.h"
#include "ir/Diagnostics.h"

using namespace xs;
using namespace xs::api;

xs_executable_s::~xs_executable_s() { xs_context_release(context); }

namespace {

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
    XS_API_SET(out_info, source, static_cast<int32_t>(info.source));
    XS_API_SET(out_info, variant_count, static_cast<int32_t>(info.variants));
    const std::string &warning = static_cast<const xs_executable_s *>(object)->compileWarning;
    XS_API_SET(out_info, warning, warning.empty() ? nullptr : warning.c_str());
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
