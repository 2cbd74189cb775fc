#include "tools/ModelFiles.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/OnnxImporter.h"
#include "ir/Parser.h"
#include "transforms/Pass.h"

namespace xs {

absl::StatusOr<Function *> selectFunction(const Module &module, const std::string &name,
                                          const std::string &path) {
  if (!name.empty()) {
    std::string bare = name[0] == '@' ? name.substr(1) : name;
    if (Function *f = module.lookup(bare))
      return f;
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": error: no function @", bare, " in this file"));
  }
  if (module.functions().size() == 1)
    return module.functions()[0].get();
  if (Function *f = module.lookup("main"))
    return f;
  std::vector<std::string> names;
  for (const auto &f : module.functions())
    names.push_back("@" + f->name());
  if (names.empty())
    return absl::InvalidArgumentError(absl::StrCat(path, ": error: the file has no function"));
  return absl::InvalidArgumentError(absl::StrCat(path, ": error: the file has several functions (",
                                                 absl::StrJoin(names, ", "),
                                                 "); choose one with --function NAME"));
}

bool isOnnxFile(const std::string &path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

absl::StatusOr<std::unique_ptr<Module>>
loadModule(const std::string &path, const std::vector<std::string> &passes, OnnxNames *onnxNames) {
  absl::StatusOr<std::unique_ptr<Module>> module;
  if (isOnnxFile(path)) {
    absl::StatusOr<OnnxImport> imported = importOnnxFile(path);
    if (!imported.ok())
      return imported.status();
    if (onnxNames)
      *onnxNames = OnnxNames{imported->inputNames, imported->outputNames, imported->dimParams};
    module = std::move(imported->module);
  } else {
    module = parseModuleFile(path);
  }
  if (!module.ok())
    return module.status();
  PipelineOptions options;
  if (absl::Status s = runPipeline(**module, passes, options); !s.ok())
    return s;
  return module;
}

} // namespace xs
