#ifndef XSTITCH_TOOLS_MODELFILES_H
#define XSTITCH_TOOLS_MODELFILES_H

// What the tools that compile a model (xstitch-run, xstitch-compile) do with
// its file first: parse text IR or import ONNX, run passes, pick the function.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// What an ONNX model's parameters and results are called in the graph.
struct OnnxNames {
  std::vector<std::string> inputs, outputs;
  /// dim_params as the model spells them, by symbol (OnnxImport::dimParams).
  std::map<std::string, std::string> dimParams;
};

/// Whether `path` names an ONNX model (ends in .onnx).
bool isOnnxFile(const std::string &path);

/// Parses (or imports) the file and runs `passes` on it; an ONNX model's
/// graph names go to `onnxNames`.
absl::StatusOr<std::unique_ptr<Module>> loadModule(const std::string &path,
                                                   const std::vector<std::string> &passes,
                                                   OnnxNames *onnxNames = nullptr);

/// The function `name` (with or without '@'), else the only one, else
/// @main; errors name `path` and say how to choose.
absl::StatusOr<Function *> selectFunction(const Module &module, const std::string &name,
                                          const std::string &path);

} // namespace xs

#endif // XSTITCH_TOOLS_MODELFILES_H
