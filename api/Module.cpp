// Modules: text IR parsed, or ONNX imported, then checked and canonicalized
// by the default pipeline, so that every error in the source surfaces here.

#include <fstream>
#include <sstream>

#include "api/ApiObjects.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Diagnostics.h"
#include "ir/Parser.h"
#include "transforms/Pass.h"

using namespace xs;
using namespace xs::api;

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A serialized ModelProto starts with a field tag: ir_version (field 1,
/// varint: 0x08) in every exporter's output; text IR never starts so.
bool looksLikeOnnx(std::string_view bytes) { return !bytes.empty() && bytes[0] == 0x08; }

/// The format a caller's options ask for (AUTO without options).
int formatOf(const xs_module_options_t *options) {
  if (options == nullptr ||
      options->struct_size < offsetof(xs_module_options_t, format) + sizeof(options->format))
    return XS_MODULE_FORMAT_AUTO;
  return enumValue(options->format);
}

/// Creates the module from `bytes`, or for an ONNX model named by `path`
/// (bytes empty), from the file itself: a model's weights are then read
/// once, into the protobuf the importer takes them from.
absl::Status createModule(std::string_view bytes, std::string_view sourceName, int format,
                          xs_module_t **out_module, const char *path = nullptr) {
  if (out_module == nullptr)
    return absl::InvalidArgumentError("out_module is NULL");
  if (format != XS_MODULE_FORMAT_AUTO && format != XS_MODULE_FORMAT_TEXT &&
      format != XS_MODULE_FORMAT_ONNX)
    return absl::InvalidArgumentError(
        strCat("unknown module format ", format, "; use XS_MODULE_FORMAT_AUTO, _TEXT or _ONNX"));
  bool onnx =
      format == XS_MODULE_FORMAT_ONNX ||
      (format == XS_MODULE_FORMAT_AUTO && (endsWith(sourceName, ".onnx") || looksLikeOnnx(bytes)));
  auto module = std::make_unique<xs_module_s>();
  if (onnx) {
    XS_ASSIGN_OR_RETURN(OnnxImport imported,
                        path != nullptr
                            ? importOnnxFile(path, OnnxImportOptions{}, std::string(sourceName))
                            : importOnnxBytes(std::string(bytes), std::string(sourceName)));
    module->module = std::move(imported.module);
    module->onnxInputNames = std::move(imported.inputNames);
    module->onnxOutputNames = std::move(imported.outputNames);
  } else {
    XS_ASSIGN_OR_RETURN(module->module, parseModule(bytes, sourceName));
  }
  XS_RETURN_IF_ERROR(runPipeline(*module->module, defaultPipeline(), PipelineOptions()));
  for (const auto &function : module->module->functions())
    module->functionNames.push_back(function->name());
  registerObject(module.get());
  *out_module = module.release();
  return absl::OkStatus();
}

} // namespace

extern "C" {

xs_status_t xs_module_create_from_bytes(const void *data, size_t size,
                                        const xs_module_options_t *options,
                                        xs_module_t **out_module) {
  return guarded([&]() -> absl::Status {
    if (data == nullptr && size > 0)
      return absl::InvalidArgumentError("xs_module_create_from_bytes: data is NULL");
    const char *name = XS_API_FIELD(options, source_name, nullptr);
    std::string_view bytes(static_cast<const char *>(data), data == nullptr ? 0 : size);
    return createModule(bytes, name != nullptr ? name : "<module>", formatOf(options), out_module);
  });
}

xs_status_t xs_module_create_from_file(const char *path, const xs_module_options_t *options,
                                       xs_module_t **out_module) {
  return guarded([&]() -> absl::Status {
    if (path == nullptr)
      return absl::InvalidArgumentError("xs_module_create_from_file: path is NULL");
    std::ifstream file(path, std::ios::binary);
    if (!file)
      return absl::NotFoundError(strCat(path, ": error: cannot open the file"));
    const char *name = XS_API_FIELD(options, source_name, nullptr);
    int format = formatOf(options);
    char first = 0;
    file.get(first);
    if (format == XS_MODULE_FORMAT_ONNX ||
        (format == XS_MODULE_FORMAT_AUTO &&
         (endsWith(path, ".onnx") || looksLikeOnnx(std::string_view(&first, file ? 1 : 0)))))
      return createModule({}, name != nullptr ? name : path, XS_MODULE_FORMAT_ONNX, out_module,
                          path);
    file.seekg(0);
    std::ostringstream contents;
    contents << file.rdbuf();
    if (file.bad())
      return absl::NotFoundError(strCat(path, ": error: cannot read the file"));
    return createModule(contents.str(), name != nullptr ? name : path, format, out_module);
  });
}

void xs_module_retain(xs_module_t *module) { retainObject(module, ObjectKind::Module); }

void xs_module_release(xs_module_t *module) { releaseObject(module, ObjectKind::Module); }

size_t xs_module_function_count(const xs_module_t *module) {
  ApiObject *object = findObject(module, ObjectKind::Module);
  return object != nullptr ? static_cast<const xs_module_s *>(object)->functionNames.size() : 0;
}

const char *xs_module_function_name(const xs_module_t *module, size_t index) {
  ApiObject *object = findObject(module, ObjectKind::Module);
  if (object == nullptr)
    return nullptr;
  const auto &names = static_cast<const xs_module_s *>(object)->functionNames;
  return index < names.size() ? names[index].c_str() : nullptr;
}

} // extern "C"
