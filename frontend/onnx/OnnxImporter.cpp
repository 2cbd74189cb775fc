#include "frontend/onnx/OnnxImporter.h"

#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/ImportContext.h"
#include "frontend/onnx/MappedModel.h"
#include "frontend/onnx/OnnxTensor.h"
#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"
#include "ir/Verifier.h"
#include "onnx/checker.h"

namespace xs {

namespace {

constexpr int kNewestOpset = 17;

/// Initializers up to this many elements are known to importers at once
/// (shape tensors, small tables); larger ones are weights, kept at their
/// width and evaluated only if an importer asks.
constexpr int64_t kMaxKnownInitializerElements = 4096;

/// The element count of a tensor's dims; 0 for invalid dims, which the
/// small initializers' path reports.
int64_t elementCount(const onnx::TensorProto &tensor) {
  int64_t n = 1;
  for (int64_t d : tensor.dims()) {
    if (d <= 0)
      return 0;
    if (n > (int64_t(1) << 40) / d)
      return INT64_MAX;
    n *= d;
  }
  return n;
}

absl::StatusOr<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(strCat(path, ": error: cannot open the file"));
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// `name` with every character the text IR does not allow in names made `_`.
std::string sanitizeName(std::string_view name, bool symbol) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (!symbol && c == '.')) ? c
                                                                                              : '_';
  if (out.empty() || (symbol && std::isdigit(static_cast<unsigned char>(out[0]))))
    out = "_" + out;
  return out;
}

} // namespace

std::string onnxDimSymbol(std::string_view dimParam) { return sanitizeName(dimParam, true); }

namespace {

/// Every node whose operator xstitch does not import (another domain, an
/// unknown op type, a version before the importer's), reported at once: a
/// model that needs several is told so in one go.
absl::Status checkOperatorsSupported(const onnx::GraphProto &graph, const ImporterTable &table,
                                     int opset, const Location &loc) {
  std::vector<std::string> order;
  absl::flat_hash_map<std::string, std::vector<std::string>> nodes; // problem -> node names
  for (int n = 0; n < graph.node_size(); ++n) {
    const onnx::NodeProto &node = graph.node(n);
    std::string problem;
    if (!node.domain().empty() && node.domain() != "ai.onnx") {
      problem = strCat(node.op_type(), " of the domain '", node.domain(), "'");
    } else if (auto importer = table.find(node.op_type()); importer == table.end()) {
      problem = node.op_type();
    } else if (opset < importer->second.minOpset) {
      problem = strCat(node.op_type(), " before opset ", importer->second.minOpset);
    } else {
      continue;
    }
    auto [it, inserted] = nodes.try_emplace(problem);
    if (inserted)
      order.push_back(problem);
    it->second.push_back(node.name().empty() ? strCat("node ", n) : strCat("'", node.name(), "'"));
  }
  if (order.empty())
    return absl::OkStatus();
  std::vector<std::string> parts;
  size_t count = 0;
  for (const std::string &problem : order) {
    const std::vector<std::string> &names = nodes.at(problem);
    count += names.size();
    std::vector<std::string> shown(names.begin(),
                                   names.begin() + std::min<size_t>(names.size(), 3));
    parts.push_back(strCat(problem, " (", names.size() == 1 ? "" : strCat(names.size(), " nodes: "),
                           absl::StrJoin(shown, ", "), names.size() > 3 ? ", ..." : "", ")"));
  }
  return unsupportedAt(loc,
                       strCat(count, count == 1 ? " node uses an operator" : " nodes use operators",
                              " xstitch does not import: ", absl::StrJoin(parts, "; "),
                              " (docs/onnx.md lists what xstitch imports; only the default "
                              "ONNX domain is imported)"));
}

std::string notAModel(const std::string &file) {
  return strCat(file,
                ": error: not an ONNX model (the protobuf does not parse; is the file truncated?)");
}

absl::StatusOr<onnx::ModelProto> parseModel(const std::string &bytes, const std::string &file) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    return absl::InvalidArgumentError(notAModel(file));
  if (!model.has_graph())
    return absl::InvalidArgumentError(strCat(file, ": error: the ONNX model has no graph"));
  return model;
}

/// The model's version of the default domain.
absl::StatusOr<int> defaultOpset(const onnx::ModelProto &model, const std::string &file) {
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx") {
      if (set.version() > kNewestOpset)
        return absl::UnimplementedError(
            strCat(file, ": error: the model uses opset ", set.version(),
                   " of the default ONNX domain; xstitch imports opsets up to ", kNewestOpset,
                   " (export with opset_version=", kNewestOpset, " or older)"));
      return static_cast<int>(set.version());
    }
  std::string domains;
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    domains += (domains.empty() ? "'" : ", '") + set.domain() + "'";
  if (!domains.empty())
    return absl::UnimplementedError(strCat(file,
                                           ": error: the model uses only the operator domains ",
                                           domains, "; xstitch imports the default ONNX domain"));
  return absl::InvalidArgumentError(
      strCat(file, ": error: the model imports no opset of the default ONNX domain"));
}

/// Graph inputs that must be known at compile time: those that reach a shape
/// operand through computations other than Shape and Size.
absl::flat_hash_set<std::string> shapeDemandedValues(const onnx::GraphProto &graph) {
  absl::flat_hash_set<std::string> demanded;
  for (int n = graph.node_size() - 1; n >= 0; --n) {
    const onnx::NodeProto &node = graph.node(n);
    bool outputDemanded = false;
    for (const std::string &out : node.output())
      outputDemanded |= demanded.contains(out);
    bool readsShapeOnly = node.op_type() == "Shape" || node.op_type() == "Size";
    uint32_t mask = node.domain().empty() ? shapeOperandMask(node.op_type()) : 0;
    for (int i = 0; i < node.input_size(); ++i)
      if (((mask >> i) & 1) || (outputDemanded && !readsShapeOnly))
        demanded.insert(node.input(i));
  }
  return demanded;
}

class GraphImporter {
public:
  /// Takes the model's weights out of `model` as it imports them; `raw`
  /// holds those kept out of it (MappedModel).
  GraphImporter(onnx::ModelProto &model, std::string file, const OnnxImportOptions &options,
                const RawInitializers &raw)
      : model_(model), file_(std::move(file)), options_(options), raw_(raw) {}

  absl::StatusOr<OnnxImport> run() {
    absl::StatusOr<int> opset = defaultOpset(model_, file_);
    if (!opset.ok())
      return opset.status();
    OnnxImport result;
    result.module = std::make_unique<Module>(std::make_shared<const std::string>(file_));
    Location loc{result.module->fileName(), 0, 0};
    Function *function = result.module->addFunction(options_.functionName, loc);
    state_.function = function;
    state_.loc = loc;
    const onnx::GraphProto &graph = model_.graph();

    absl::flat_hash_set<std::string> inputNames;
    for (const onnx::ValueInfoProto &input : graph.input())
      inputNames.insert(input.name());
    absl::flat_hash_set<std::string> demanded = shapeDemandedValues(graph);
    for (const onnx::ValueInfoProto &input : graph.input()) {
      auto frozen = options_.shapeInputValues.find(input.name());
      if (frozen != options_.shapeInputValues.end() && demanded.contains(input.name())) {
        ImportContext context(state_, onnx::NodeProto(), -1, *opset);
        absl::StatusOr<Value *> c = context.constant(frozen->second);
        if (!c.ok())
          return c.status();
        state_.values[input.name()] = OnnxValue{*c};
        result.frozenInputs.push_back(input.name());
        continue;
      }
      absl::StatusOr<TensorType> type = inputType(input);
      if (!type.ok())
        return type.status();
      std::string name = sanitizeName(input.name(), false);
      if (function->nameInUse(name))
        name = function->freshName(name);
      Value *param = function->addParam(name, *type, loc);
      state_.values[input.name()] = OnnxValue{param};
      result.inputNames.push_back(input.name());
      if (input.type().has_tensor_type())
        for (const onnx::TensorShapeProto::Dimension &dim :
             input.type().tensor_type().shape().dim())
          if (dim.has_dim_param() && !dim.dim_param().empty())
            result.dimParams.emplace(onnxDimSymbol(dim.dim_param()), dim.dim_param());
    }
    for (int i = 0; i < graph.initializer_size(); ++i) {
      onnx::TensorProto &init = *model_.mutable_graph()->mutable_initializer(i);
      if (inputNames.contains(init.name()))
        continue;
      std::optional<std::string_view> raw = static_cast<size_t>(i) < raw_.bytes.size()
                                                ? raw_.bytes[static_cast<size_t>(i)]
                                                : std::nullopt;
      ImportContext context(state_, onnx::NodeProto(), -1, *opset);
      absl::StatusOr<Value *> c;
      std::string what = strCat("initializer '", init.name(), "'");
      context.setOrigin(what);
      if (elementCount(init) <= kMaxKnownInitializerElements) {
        if (raw)
          init.set_raw_data(std::string(*raw));
        absl::StatusOr<HostTensor> tensor = hostTensorFromOnnx(init, what);
        if (!tensor.ok())
          return locate(tensor.status());
        c = context.constant(*tensor);
      } else {
        // Weights: stored once at their width; the protobuf's copy goes now.
        absl::StatusOr<std::shared_ptr<const DenseElements>> elements =
            denseElementsFromOnnx(init, what, raw);
        if (!elements.ok())
          return locate(elements.status());
        std::string().swap(*init.mutable_raw_data()); // frees it; clear() keeps the capacity
        if (raw && raw_.release)
          raw_.release(*raw);
        c = context.constant(std::vector<int64_t>(init.dims().begin(), init.dims().end()),
                             *std::move(elements));
      }
      if (!c.ok())
        return c.status();
      state_.values[init.name()] = OnnxValue{*c};
    }

    const ImporterTable &table = onnxImporters();
    if (absl::Status s = checkOperatorsSupported(graph, table, *opset, loc); !s.ok())
      return s;
    for (int n = 0; n < graph.node_size(); ++n) {
      const onnx::NodeProto &node = graph.node(n);
      ImportContext context(state_, node, n, *opset);
      if (!node.domain().empty() && node.domain() != "ai.onnx")
        return context.unsupported(strCat("operators of the domain '", node.domain(),
                                          "' are not supported (only the default ONNX domain)"));
      auto importer = table.find(node.op_type());
      if (importer == table.end())
        return context.unsupported(strCat("the operator ", node.op_type(),
                                          " is not supported (docs/onnx.md lists "
                                          "what xstitch imports)"));
      if (*opset < importer->second.minOpset)
        return context.unsupported(strCat("the version of ", node.op_type(), " in opset ", *opset,
                                          " is not supported; xstitch imports it from opset ",
                                          importer->second.minOpset));
      for (int i = 0; i < node.input_size(); ++i)
        if (!node.input(i).empty() && !state_.values.contains(node.input(i)))
          return context.error(strCat("input ", i, " ('", node.input(i),
                                      "') is not produced by any node, initializer or graph "
                                      "input before this node"));
      if (absl::Status s = importer->second.import(context); !s.ok())
        return s;
      for (int i = 0; i < node.output_size(); ++i)
        if (!node.output(i).empty() && !state_.values.contains(node.output(i)))
          return context.unsupported(
              strCat("output ", i, " ('", node.output(i), "') is not supported"));
    }

    absl::flat_hash_set<std::string> resultNames;
    for (const onnx::ValueInfoProto &output : graph.output()) {
      auto it = state_.values.find(output.name());
      if (it == state_.values.end())
        return absl::InvalidArgumentError(strCat(file_, ": error: graph output '", output.name(),
                                                 "' is not produced by any node"));
      onnx::NodeProto identity;
      identity.set_op_type("output");
      identity.add_input(output.name());
      ImportContext context(state_, identity, graph.node_size(), *opset);
      absl::StatusOr<Value *> value = context.input(0);
      if (!value.ok())
        return value.status();
      std::string name = sanitizeName(output.name(), false);
      // A result name is an identifier: PyTorch names unnamed outputs by
      // number ("15").
      if (std::isdigit(static_cast<unsigned char>(name[0])))
        name = "_" + name;
      while (resultNames.contains(name))
        name += "_";
      resultNames.insert(name);
      function->results().push_back(FunctionResult{name, *value, TensorType(), loc});
      result.outputNames.push_back(output.name());
    }
    // Facts a later node gave (S == 8 from an Expand) can contradict how an
    // earlier node was imported while S was open (a Slice from 9 to S - 1,
    // where ONNX would clamp the start to S): xstitch cannot import the
    // pair, and says so here rather than leave IR that does not verify.
    if (absl::Status s = verifyFunction(*function); !s.ok())
      return absl::InvalidArgumentError(strCat(
          s.message(),
          " (under facts that later nodes give, which contradict how this node was imported)"));
    return result;
  }

private:
  absl::Status locate(const absl::Status &s) const {
    return absl::Status(s.code(), strCat(file_, ": error: ", s.message()));
  }

  absl::StatusOr<TensorType> inputType(const onnx::ValueInfoProto &input) {
    const std::string what = strCat("graph input '", input.name(), "'");
    if (!input.type().has_tensor_type())
      return absl::UnimplementedError(strCat(file_, ": error: ", what,
                                             " is not a tensor (sequences, maps and optionals are "
                                             "not supported)"));
    const onnx::TypeProto::Tensor &tensor = input.type().tensor_type();
    absl::StatusOr<ElementType> type = elementTypeFromOnnx(tensor.elem_type());
    if (!type.ok())
      return locate(
          absl::Status(type.status().code(), strCat(what, ": ", type.status().message())));
    if (!tensor.has_shape())
      return absl::UnimplementedError(
          strCat(file_, ": error: ", what,
                 " has no shape; xstitch needs at least its rank (export "
                 "with input shapes, dynamic axes named by dim_param)"));
    std::vector<DimExpr> shape;
    if (auto given = options_.inputShapes.find(input.name()); given != options_.inputShapes.end()) {
      for (int64_t d : given->second)
        shape.push_back(DimExpr(d));
      return TensorType(*type, shape);
    }
    for (const onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim()) {
      if (dim.has_dim_value()) {
        if (dim.dim_value() < 0 || dim.dim_value() > (int64_t(1) << 31))
          return absl::InvalidArgumentError(strCat(file_, ": error: ", what, " has the dim ",
                                                   dim.dim_value(), " (0 to 2^31 allowed)"));
        shape.push_back(DimExpr(dim.dim_value()));
      } else if (dim.has_dim_param() && !dim.dim_param().empty()) {
        shape.push_back(DimExpr::symbol(sanitizeName(dim.dim_param(), true)));
      } else {
        // An unnamed dynamic dim: `input_k` for dim k of the input.
        shape.push_back(DimExpr::symbol(
            sanitizeName(strCat(input.name(), "_", shape.size()), /*symbol=*/true)));
      }
    }
    return TensorType(*type, shape);
  }

  onnx::ModelProto &model_;
  std::string file_;
  const OnnxImportOptions &options_;
  const RawInitializers &raw_;
  GraphState state_;
};

} // namespace

namespace {

absl::StatusOr<OnnxImport> importOnnxModel(absl::StatusOr<onnx::ModelProto> model,
                                           const std::string &fileName,
                                           const OnnxImportOptions &options,
                                           const RawInitializers &raw = {}) {
  if (!model.ok())
    return model.status();
  if (absl::StatusOr<int> opset = defaultOpset(*model, fileName); !opset.ok())
    return opset.status();
  try {
    onnx::checker::check_model(*model);
  } catch (const std::exception &e) {
    return absl::InvalidArgumentError(
        strCat(fileName, ": error: the ONNX checker rejects the model: ", e.what()));
  }
  return GraphImporter(*model, fileName, options, raw).run();
}

} // namespace

absl::StatusOr<OnnxImport> importOnnxBytes(const std::string &bytes, const std::string &fileName,
                                           const OnnxImportOptions &options) {
  return importOnnxModel(parseModel(bytes, fileName), fileName, options);
}

absl::StatusOr<OnnxImport> importOnnxFile(const std::string &path, const OnnxImportOptions &options,
                                          const std::string &sourceName) {
  const std::string &file = sourceName.empty() ? path : sourceName;
  // The file mapped, the large initializers' bytes left in the mapping until
  // each is copied into its weights' storage.
  if (std::optional<MappedModel> mapped = readMappedModel(path))
    return importOnnxModel(std::move(mapped->model), file, options, mapped->raw);
  // Else parsed by protobuf straight from the file (the importer takes the
  // weights out of it), which names what is wrong with a malformed one.
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(strCat(path, ": error: cannot open the file"));
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in))
    return absl::InvalidArgumentError(notAModel(file));
  if (!model.has_graph())
    return absl::InvalidArgumentError(strCat(file, ": error: the ONNX model has no graph"));
  return importOnnxModel(std::move(model), file, options);
}

absl::StatusOr<HostTensor> readTensorProtoFile(const std::string &path,
                                               std::optional<ElementType> as) {
  absl::StatusOr<std::string> bytes = readFile(path);
  if (!bytes.ok())
    return bytes.status();
  onnx::TensorProto proto;
  if (!proto.ParseFromString(*bytes))
    return absl::InvalidArgumentError(
        strCat(path, ": error: not a serialized ONNX TensorProto (is the file truncated?)"));
  if (as == ElementType::BF16 && proto.data_type() == onnx::TensorProto::UINT16)
    proto.set_data_type(onnx::TensorProto::BFLOAT16);
  absl::StatusOr<HostTensor> tensor = hostTensorFromOnnx(proto, "the tensor");
  if (!tensor.ok())
    return absl::Status(tensor.status().code(),
                        strCat(path, ": error: ", tensor.status().message()));
  return tensor;
}

absl::Status writeTensorProtoFile(const std::string &path, const HostTensor &tensor) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !onnxFromHostTensor(tensor, "").SerializeToOstream(&out))
    return absl::InvalidArgumentError(strCat(path, ": error: cannot write the file"));
  return absl::OkStatus();
}

absl::StatusOr<OnnxModelSummary> summarizeOnnxFile(const std::string &path) {
  absl::StatusOr<std::string> bytes = readFile(path);
  if (!bytes.ok())
    return bytes.status();
  absl::StatusOr<onnx::ModelProto> model = parseModel(*bytes, path);
  if (!model.ok())
    return model.status();
  OnnxModelSummary summary;
  auto typeOf = [](const onnx::ValueInfoProto &v) -> std::optional<ElementType> {
    if (!v.type().has_tensor_type())
      return std::nullopt;
    absl::StatusOr<ElementType> t = elementTypeFromOnnx(v.type().tensor_type().elem_type());
    return t.ok() ? std::optional<ElementType>(*t) : std::nullopt;
  };
  for (const onnx::ValueInfoProto &input : model->graph().input()) {
    summary.inputs.push_back(input.name());
    summary.inputTypes.push_back(typeOf(input));
    std::optional<std::vector<int64_t>> shape;
    if (input.type().has_tensor_type() && input.type().tensor_type().has_shape()) {
      shape.emplace();
      for (const onnx::TensorShapeProto::Dimension &dim :
           input.type().tensor_type().shape().dim()) {
        if (!dim.has_dim_value()) {
          shape.reset();
          break;
        }
        shape->push_back(dim.dim_value());
      }
    }
    summary.inputShapes.push_back(shape);
  }
  for (const onnx::ValueInfoProto &output : model->graph().output()) {
    summary.outputs.push_back(output.name());
    summary.outputTypes.push_back(typeOf(output));
  }
  for (const onnx::NodeProto &node : model->graph().node())
    summary.opTypes.push_back(node.op_type());
  return summary;
}

} // namespace xs
