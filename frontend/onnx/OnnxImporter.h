#ifndef XSTITCH_FRONTEND_ONNX_ONNXIMPORTER_H
#define XSTITCH_FRONTEND_ONNX_ONNXIMPORTER_H

// The ONNX frontend: an ONNX model (opsets 1 to 17 of the default domain,
// each operator from the oldest version xstitch imports; docs/onnx.md)
// becomes one xstitch function. Graph inputs become parameters in order,
// `dim_param` names become symbolic dims of the same name and unnamed
// dynamic dims fresh symbols (`x_1` for dim 1 of input `x`); initializers become
// constants unless a graph input of the same name shadows them; numpy
// broadcasting becomes explicit broadcasts; shape computations (Shape,
// Gather, Concat, ... into Reshape, Slice, Expand) are evaluated at import
// time on symbolic dims. Errors name the node (index, name, type) and what
// is not supported.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"

namespace xs {

struct OnnxImportOptions {
  /// The name of the imported function.
  std::string functionName = "main";
  /// Values of graph inputs, by ONNX name, for inputs that feed shape
  /// operands (Reshape's shape, Slice's bounds, ...): those inputs become
  /// constants (OnnxImport::frozenInputs). Other inputs given here stay
  /// parameters.
  std::map<std::string, HostTensor> shapeInputValues;
  /// Static shapes for graph inputs, by ONNX name, replacing the declared
  /// ones (a model whose declaration disagrees with its data).
  std::map<std::string, std::vector<int64_t>> inputShapes;
};

struct OnnxImport {
  std::unique_ptr<Module> module;
  /// The ONNX names of the function's parameters, in order.
  std::vector<std::string> inputNames;
  /// The ONNX names of the function's results, in order.
  std::vector<std::string> outputNames;
  /// Graph inputs that became constants from OnnxImportOptions::shapeInputValues.
  std::vector<std::string> frozenInputs;
  /// The inputs' dim_params as the model spells them ("batch size"), by the
  /// symbol each became (batch_size; onnxDimSymbol).
  std::map<std::string, std::string> dimParams;
};

/// Imports the model in `path`. A file that is not an ONNX model, an opset
/// newer than 17, or an operator, attribute or type xstitch does not import
/// is an error naming the file (and the node), or `sourceName` when given.
/// The file is mapped and its weights' bytes copied once, from the mapping
/// into their storage (MappedModel.h).
absl::StatusOr<OnnxImport> importOnnxFile(const std::string &path,
                                          const OnnxImportOptions &options = {},
                                          const std::string &sourceName = "");
/// The same from the serialized model; `fileName` locates errors.
absl::StatusOr<OnnxImport> importOnnxBytes(const std::string &bytes, const std::string &fileName,
                                           const OnnxImportOptions &options = {});

/// A serialized ONNX TensorProto (`.pb` test data). With `as` bf16, UINT16
/// data holds bf16 bit patterns: ONNX's test generator stores bf16 so.
absl::StatusOr<HostTensor> readTensorProtoFile(const std::string &path,
                                               std::optional<ElementType> as = std::nullopt);
absl::Status writeTensorProtoFile(const std::string &path, const HostTensor &tensor);

/// The names of a model's graph inputs and outputs and its operator types,
/// without importing it.
struct OnnxModelSummary {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> opTypes; // one per node, in order
  /// Element types of the inputs and outputs (nullopt: not a tensor, or a
  /// type xstitch lacks).
  std::vector<std::optional<ElementType>> inputTypes, outputTypes;
  /// The inputs' declared shapes where every dim is a number.
  std::vector<std::optional<std::vector<int64_t>>> inputShapes;
};
absl::StatusOr<OnnxModelSummary> summarizeOnnxFile(const std::string &path);

/// The IR symbol an ONNX dim_param becomes ("batch size" -> batch_size,
/// "2d" -> _2d), so that tools take a dim as the model spells it.
std::string onnxDimSymbol(std::string_view dimParam);

} // namespace xs

#endif // XSTITCH_FRONTEND_ONNX_ONNXIMPORTER_H
