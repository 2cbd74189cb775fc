#include "frontend/onnx/ImportContext.h"

#include <string>

#include "absl/strings/str_join.h"

#include "frontend/onnx/OnnxImporter.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"
#include "ir/Interpreter.h"

namespace xs {

namespace {

/// Values computed from constants are evaluated while importing up to this
/// many elements (shape computations, small tables); larger ones are left
/// to the constant-fold pass and the kernels.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 16;

/// Shape operands computed at run time have at most this many entries
/// (each becomes a host symbol with its own ops; the length is a rank, and
/// the element count of a type stays within what the text format expands).
constexpr int64_t kMaxRuntimeEntries = 16;

/// A rule's message without its `file: error: ` prefix.
std::string stripLocation(absl::string_view message) {
  size_t at = message.find(": error: ");
  return std::string(at == absl::string_view::npos ? message : message.substr(at + 9));
}

} // namespace

ImportContext::ImportContext(GraphState &graph, const onnx::NodeProto &node, int nodeIndex,
                             int opset)
    : graph_(graph), node_(node), nodeIndex_(nodeIndex), opset_(opset),
      builder_(*graph.function, nullptr, graph.loc) {
  // The ops a node becomes say which node it was, as the model names it.
  if (nodeIndex >= 0) {
    Location loc = graph.loc;
    loc.origin = std::make_shared<const std::string>(
        node.name().empty() ? strCat("node ", nodeIndex, " (", node.op_type(), ")")
                            : strCat(node.name(), " (", node.op_type(), ")"));
    builder_.setLocation(std::move(loc));
  }
}

void ImportContext::setOrigin(std::string origin) {
  Location loc = graph_.loc;
  loc.origin = std::make_shared<const std::string>(std::move(origin));
  builder_.setLocation(std::move(loc));
}

std::string ImportContext::nodeDescription() const {
  std::string text = strCat("node ", nodeIndex_);
  if (!node_.name().empty())
    text += strCat(" '", node_.name(), "'");
  return strCat(text, " (", node_.op_type(), ")");
}

absl::Status ImportContext::error(std::string_view msg) const {
  return errorAt(graph_.loc, strCat(nodeDescription(), ": ", msg));
}

absl::Status ImportContext::unsupported(std::string_view msg) const {
  return unsupportedAt(graph_.loc, strCat(nodeDescription(), ": ", msg));
}

bool ImportContext::hasInput(int i) const {
  return i < node_.input_size() && !node_.input(i).empty();
}

const OnnxValue *ImportContext::onnxInput(int i) const {
  if (!hasInput(i))
    return nullptr;
  auto it = graph_.values.find(node_.input(i));
  return it == graph_.values.end() ? nullptr : &it->second;
}

bool ImportContext::inputIsDims(int i) const {
  const OnnxValue *v = onnxInput(i);
  if (!v)
    return false;
  if (v->dims)
    return true;
  const HostTensor *known = knownValue(v->value);
  return known && !known->isFloat() && known->rank() <= 1;
}

bool ImportContext::inputIsRuntime(int i) const {
  const OnnxValue *v = onnxInput(i);
  return v && v->value && !knownValue(v->value);
}

absl::StatusOr<std::vector<DimExpr>> ImportContext::sizesInput(int i, std::string_view what) {
  if (!inputIsRuntime(i))
    return dimsInput(i, what);
  XS_ASSIGN_OR_RETURN(Value * given, input(i));
  XS_ASSIGN_OR_RETURN(std::vector<Value *> entries, runtimeEntries(given, what));
  return hostDims(entries, what);
}

namespace {

/// The host symbols of `node`'s sizes are named after what a user sees of it
/// in the model: the node's name ("/encoder/Reshape" -> encoder_Reshape_0,
/// encoder_Reshape_1, ...), else its first output's, else its type and
/// index (Reshape7_0). A name some symbol already starts with takes the last.
std::string hostSymbolPrefix(const Function &function, const onnx::NodeProto &node, int index) {
  std::string fallback = strCat(node.op_type(), index);
  std::string given = !node.name().empty()                                ? node.name()
                      : node.output_size() > 0 && !node.output(0).empty() ? node.output(0)
                                                                          : std::string();
  // A symbol's spelling (onnxDimSymbol), without the separators a path
  // starts with ("/encoder/Reshape" is a word after its slash).
  std::string prefix = onnxDimSymbol(given);
  size_t first = prefix.find_first_not_of('_');
  if (first == std::string::npos)
    return fallback;
  prefix = onnxDimSymbol(prefix.substr(first));
  std::string taken = prefix + "_";
  auto clashes = [&](const std::string &symbol) { return symbol.rfind(taken, 0) == 0; };
  for (const auto &param : function.params())
    for (const DimExpr &d : param->type().shape())
      for (const std::string &symbol : d.symbols())
        if (clashes(symbol))
          return fallback;
  if (const HostSymbols *host = function.hostSymbols())
    for (const std::string &symbol : host->symbols)
      if (clashes(symbol))
        return fallback;
  return prefix;
}

} // namespace

absl::StatusOr<std::vector<DimExpr>> ImportContext::hostDims(Value *v, std::string_view what) {
  std::string prefix = hostSymbolPrefix(function(), node_, nodeIndex_);
  absl::StatusOr<std::vector<DimExpr>> dims = addHostSymbols(function(), *v, prefix);
  if (!dims.ok())
    return unsupported(strCat(what, " is computed at run time, but ", dims.status().message()));
  return dims;
}

absl::StatusOr<std::vector<DimExpr>> ImportContext::hostDims(const std::vector<Value *> &entries,
                                                             std::string_view what) {
  if (entries.empty())
    return std::vector<DimExpr>{};
  std::vector<Value *> vectors;
  for (Value *e : entries) {
    XS_ASSIGN_OR_RETURN(Value * v, reshape(e, {DimExpr(1)}));
    vectors.push_back(v);
  }
  XS_ASSIGN_OR_RETURN(Value * all,
                      create(OpKind::Concat, vectors, {{"dim", Attribute::integer(0)}}));
  return hostDims(all, what);
}

absl::StatusOr<std::vector<Value *>> ImportContext::runtimeEntries(Value *v,
                                                                   std::string_view what) {
  std::optional<std::vector<int64_t>> length = v->type().staticShape();
  if (v->type().rank() != 1 || !length)
    return unsupported(strCat(what, " is computed at run time and has type ", v->type().str(),
                              "; it must be a vector whose length is known when the model is "
                              "compiled (the length is a rank)"));
  if ((*length)[0] > kMaxRuntimeEntries)
    return unsupported(strCat(what, " is computed at run time and has ", (*length)[0],
                              " entries; more than ", kMaxRuntimeEntries, " are not supported"));
  std::vector<Value *> entries;
  for (int64_t k = 0; k < (*length)[0]; ++k) {
    XS_ASSIGN_OR_RETURN(Value * e, elementI64(v, k));
    entries.push_back(e);
  }
  return entries;
}

absl::StatusOr<Value *> ImportContext::elementI64(Value *v, int64_t k) {
  Value *element = v;
  if (v->type().rank() == 1) {
    XS_ASSIGN_OR_RETURN(element, create(OpKind::Slice, {v},
                                        {{"start", Attribute::dimList({DimExpr(k)})},
                                         {"limit", Attribute::dimList({DimExpr(k + 1)})}}));
    XS_ASSIGN_OR_RETURN(element, reshape(element, {}));
  }
  return cast(element, ElementType::I64);
}

absl::StatusOr<Value *> ImportContext::input(int i) {
  if (!hasInput(i))
    return error(strCat("input ", i, " is missing"));
  const OnnxValue *v = onnxInput(i);
  if (!v)
    return error(strCat("input ", i, " ('", node_.input(i),
                        "') is not produced by any node, initializer or graph input before it"));
  if (v->value)
    return v->value;
  bool allConstant = true;
  for (const DimExpr &d : *v->dims)
    allConstant &= d.isConstant();
  std::vector<int64_t> shape;
  if (!v->scalarDims)
    shape.push_back(static_cast<int64_t>(v->dims->size()));
  if (!allConstant) {
    // Symbolic dims used as data: their values at run time.
    if (v->dims->empty())
      return error(strCat("input ", i, " is an empty vector of dims"));
    std::vector<DimExpr> type(shape.begin(), shape.end());
    return create(OpKind::DimValue, {}, {{"dims", Attribute::dimList(*v->dims)}},
                  TensorType(ElementType::I64, type));
  }
  HostTensor t(ElementType::I64, shape);
  for (size_t k = 0; k < v->dims->size(); ++k)
    t.ints()[k] = *(*v->dims)[k].constantValue();
  return constant(t);
}

absl::StatusOr<Value *> ImportContext::optionalInput(int i) {
  if (!hasInput(i))
    return nullptr;
  return input(i);
}

absl::StatusOr<std::vector<Value *>> ImportContext::inputs() {
  if (numInputs() == 0)
    return error("needs at least one input");
  std::vector<Value *> values;
  for (int i = 0; i < numInputs(); ++i) {
    XS_ASSIGN_OR_RETURN(Value * v, input(i));
    values.push_back(v);
  }
  return values;
}

absl::StatusOr<TensorType> ImportContext::inputType(int i) {
  const OnnxValue *v = onnxInput(i);
  if (v && !v->value && v->dims) {
    std::vector<DimExpr> shape;
    if (!v->scalarDims)
      shape.push_back(DimExpr(static_cast<int64_t>(v->dims->size())));
    return TensorType(ElementType::I64, shape);
  }
  absl::StatusOr<Value *> value = input(i);
  if (!value.ok())
    return value.status();
  return (*value)->type();
}

absl::StatusOr<HostTensor> ImportContext::constantInput(int i, std::string_view what) {
  if (!hasInput(i))
    return error(strCat("input ", i, " (", what, ") is missing"));
  const OnnxValue *v = onnxInput(i);
  if (v && v->dims) {
    // Dims with a symbol become a dim_value, whose value is known only at
    // run time.
    absl::StatusOr<Value *> value = input(i);
    const HostTensor *known = value.ok() ? knownValue(*value) : nullptr;
    if (!known)
      return unsupported(
          strCat(what,
                 " must be known when the model is compiled, but it holds "
                 "symbolic dims (",
                 absl::StrJoin(*v->dims, ", ",
                               [](std::string *out, const DimExpr &d) { out->append(d.str()); }),
                 ")"));
    return *known;
  }
  absl::StatusOr<Value *> value = input(i);
  if (!value.ok())
    return value.status();
  if (const HostTensor *known = knownValue(*value))
    return *known;
  return unsupported(
      strCat(what, " (input ", i, ", '", node_.input(i),
             "') must be known when the model is compiled: a constant, an initializer, or computed "
             "from those and from shapes; here it depends on the values of a graph input"));
}

absl::StatusOr<std::vector<int64_t>> ImportContext::constantInts(int i, std::string_view what) {
  absl::StatusOr<HostTensor> t = constantInput(i, what);
  if (!t.ok())
    return t.status();
  if (t->isFloat())
    return error(strCat(what, " must be integers, got ", t->typeStr()));
  return t->ints();
}

absl::StatusOr<std::vector<DimExpr>> ImportContext::dimsInput(int i, std::string_view what) {
  const OnnxValue *v = onnxInput(i);
  if (v && !v->value && v->dims)
    return *v->dims;
  absl::StatusOr<std::vector<int64_t>> ints = constantInts(i, what);
  if (!ints.ok())
    return ints.status();
  return std::vector<DimExpr>(ints->begin(), ints->end());
}

const onnx::AttributeProto *ImportContext::attr(std::string_view name) const {
  for (const onnx::AttributeProto &a : node_.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

bool ImportContext::hasAttr(std::string_view name) const { return attr(name) != nullptr; }

int64_t ImportContext::intAttr(std::string_view name, int64_t fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : fallback;
}

double ImportContext::floatAttr(std::string_view name, double fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : fallback;
}

std::string ImportContext::stringAttr(std::string_view name, std::string fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : fallback;
}

std::vector<int64_t> ImportContext::intsAttr(std::string_view name) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t>{};
}

std::vector<double> ImportContext::floatsAttr(std::string_view name) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? std::vector<double>(a->floats().begin(), a->floats().end()) : std::vector<double>{};
}

bool ImportContext::hasOutput(int i) const {
  return i < node_.output_size() && !node_.output(i).empty();
}

void ImportContext::setOutput(int i, Value *value) {
  if (hasOutput(i))
    graph_.values[node_.output(i)] = OnnxValue{value, std::nullopt, false};
}

void ImportContext::setOutputDims(int i, std::vector<DimExpr> dims, bool scalar) {
  if (!hasOutput(i))
    return;
  bool allConstant = true;
  for (const DimExpr &d : dims)
    allConstant &= d.isConstant();
  if (allConstant) {
    std::vector<int64_t> shape;
    if (!scalar)
      shape.push_back(static_cast<int64_t>(dims.size()));
    HostTensor t(ElementType::I64, shape);
    for (size_t k = 0; k < dims.size(); ++k)
      t.ints()[k] = *dims[k].constantValue();
    absl::StatusOr<Value *> c = constant(t);
    if (c.ok()) {
      setOutput(i, *c);
      return;
    }
  }
  graph_.values[node_.output(i)] = OnnxValue{nullptr, std::move(dims), scalar};
}

const HostTensor *ImportContext::knownValue(const Value *v) const {
  auto it = graph_.known.find(v);
  if (it != graph_.known.end())
    return &it->second;
  const Operation *def = v->definingOp();
  if (!def || def->kind() != OpKind::Constant || !def->attr("value") ||
      !def->attr("value")->getLiteral().elements)
    return nullptr;
  absl::StatusOr<HostTensor> value = evaluateOp(*def, {}, DimBindings{});
  if (!value.ok())
    return nullptr;
  return &(graph_.known[v] = *std::move(value));
}

absl::StatusOr<Value *> ImportContext::create(OpKind kind, std::vector<Value *> operands,
                                              AttrDict attrs, TensorType type) {
  if (type.known())
    XS_RETURN_IF_ERROR(checkShape(type.shape(), strCat("the result of ", mnemonic(kind))));
  absl::StatusOr<Value *> made = builder_.create(kind, operands, std::move(attrs), type);
  if (!made.ok())
    return error(stripLocation(made.status().message()));
  // Evaluate what constants alone determine, so that importers downstream
  // can read it; not ops on weights, which are left to the kernels.
  auto small = [](const Value *v) {
    std::optional<std::vector<int64_t>> shape = v->type().staticShape();
    if (!shape)
      return false;
    int64_t elements = 1;
    for (int64_t d : *shape)
      elements *= d;
    return elements <= kMaxFoldedElements;
  };
  if (kind == OpKind::Dot || !small(*made))
    return made;
  std::vector<const HostTensor *> values;
  for (Value *operand : operands) {
    const HostTensor *known = small(operand) ? knownValue(operand) : nullptr;
    if (!known)
      return made;
    values.push_back(known);
  }
  absl::StatusOr<HostTensor> folded = evaluateOp(*(*made)->definingOp(), values, DimBindings{});
  if (folded.ok())
    graph_.known[*made] = std::move(*folded);
  return made;
}

absl::StatusOr<Value *> ImportContext::constant(const HostTensor &tensor) {
  LiteralValue literal;
  literal.shape = tensor.shape();
  literal.isInteger = !tensor.isFloat();
  if (literal.isInteger)
    literal.ints = tensor.ints();
  else
    literal.floats = tensor.floats();
  // A rank-0 literal is written as a number, which means a splat.
  if (tensor.rank() == 0)
    literal.shape.clear();
  std::vector<DimExpr> shape(tensor.shape().begin(), tensor.shape().end());
  absl::StatusOr<Value *> made =
      builder_.create(OpKind::Constant, {}, {{"value", Attribute::literal(std::move(literal))}},
                      TensorType(tensor.elementType(), shape));
  if (!made.ok())
    return error(stripLocation(made.status().message()));
  graph_.known[*made] = tensor;
  return made;
}

absl::StatusOr<Value *> ImportContext::constant(std::vector<int64_t> shape,
                                                std::shared_ptr<const DenseElements> elements) {
  ElementType type = elements->elementType();
  std::vector<DimExpr> dims(shape.begin(), shape.end());
  LiteralValue literal = LiteralValue::dense(std::move(shape), std::move(elements));
  // A rank-0 literal is written as a number, which means a splat.
  if (dims.empty())
    literal.shape.clear();
  absl::StatusOr<Value *> made =
      builder_.create(OpKind::Constant, {}, {{"value", Attribute::literal(std::move(literal))}},
                      TensorType(type, dims));
  if (!made.ok())
    return error(stripLocation(made.status().message()));
  return made;
}

absl::StatusOr<Value *> ImportContext::splat(double v, TensorType type) {
  // HostTensor converts to the type as `cast` does (integers wrap).
  HostTensor element(type.elementType(), {});
  element.setDouble(0, v);
  return splat(element, std::move(type));
}

absl::StatusOr<Value *> ImportContext::splat(const HostTensor &element, TensorType type) {
  XS_RETURN_IF_ERROR(checkShape(type.shape(), "the shape"));
  if (element.numElements() != 1 || element.elementType() != type.elementType())
    return error(
        strCat("a fill value must be one element of ", type.str(), ", got ", element.typeStr()));
  LiteralValue literal;
  literal.isInteger = !element.isFloat();
  if (literal.isInteger)
    literal.ints = element.ints();
  else
    literal.floats = element.floats();
  absl::StatusOr<Value *> made = builder_.create(
      OpKind::Constant, {}, {{"value", Attribute::literal(std::move(literal))}}, type);
  if (!made.ok())
    return error(stripLocation(made.status().message()));
  if (std::optional<std::vector<int64_t>> shape = type.staticShape()) {
    int64_t elements = 1;
    for (int64_t d : *shape)
      elements *= d;
    if (elements <= kMaxFoldedElements) {
      HostTensor t(type.elementType(), *shape);
      if (t.isFloat())
        t.floats().assign(static_cast<size_t>(elements), element.floats()[0]);
      else
        t.ints().assign(static_cast<size_t>(elements), element.ints()[0]);
      graph_.known[*made] = std::move(t);
    }
  }
  return made;
}

absl::StatusOr<Value *> ImportContext::scalarLike(double v, Value *like) {
  return splat(v, TensorType(like->type().elementType(), {}));
}

absl::StatusOr<Value *> ImportContext::dimScalar(const DimExpr &d, ElementType t) {
  if (std::optional<int64_t> k = d.constantValue())
    return splat(static_cast<double>(*k), TensorType(t, {}));
  return create(OpKind::DimValue, {}, {{"dims", Attribute::dimList({d})}}, TensorType(t, {}));
}

absl::Status ImportContext::requireSameCount(const DimExpr &count,
                                             const std::vector<DimExpr> &shape) {
  ConstraintStore &facts = function().constraints();
  const DimExpr product = dimProduct(shape);
  if (facts.provablyEqual(count, product))
    return absl::OkStatus();
  for (const DimExpr &dim : shape)
    for (const DimTerm &term : dim.terms())
      for (const DimAtom &atom : term.factors)
        if (!atom.isSymbol() && atom.numerator->isSymbol() &&
            !facts.provablyDivisible(*atom.numerator, atom.divisor))
          if (absl::Status s = facts.addDivisible(*atom.numerator, atom.divisor); !s.ok())
            return error(strCat("the shape cannot hold the input's elements: ", s.message()));
  if (facts.provablyEqual(count, product))
    return absl::OkStatus();
  if (absl::Status s = facts.addEqual(count, product); !s.ok())
    return error(strCat("the shape cannot hold the input's elements: ", s.message()));
  return absl::OkStatus();
}

absl::StatusOr<Value *> ImportContext::reshape(Value *x, std::vector<DimExpr> shape) {
  if (x->type().shape() == shape)
    return x;
  // Bounded first: the count of an unbounded shape could overflow.
  XS_RETURN_IF_ERROR(checkShape(shape, "the result of reshape"));
  XS_RETURN_IF_ERROR(requireSameCount(x->type().numElements(), shape));
  return create(OpKind::Reshape, {x}, {}, TensorType(x->type().elementType(), std::move(shape)));
}

absl::StatusOr<Value *> ImportContext::cast(Value *x, ElementType to) {
  if (x->type().elementType() == to)
    return x;
  return create(OpKind::Cast, {x}, {{"to", Attribute::elementType(to)}});
}

absl::StatusOr<std::vector<DimExpr>>
ImportContext::broadcastShape(const std::vector<TensorType> &types) {
  int64_t rank = 0;
  for (const TensorType &t : types)
    rank = std::max(rank, t.rank());
  std::vector<DimExpr> shape(static_cast<size_t>(rank), DimExpr(1));
  for (int64_t d = 0; d < rank; ++d) {
    DimExpr &out = shape[static_cast<size_t>(d)];
    for (const TensorType &t : types) {
      int64_t k = d - (rank - t.rank());
      if (k < 0)
        continue;
      const DimExpr &dim = t.dim(k);
      if (dim == DimExpr(1) || dim == out)
        continue;
      if (out == DimExpr(1)) {
        out = dim;
        continue;
      }
      if (out.isConstant() && dim.isConstant()) {
        std::string shapes;
        for (const TensorType &u : types)
          shapes += (shapes.empty() ? "" : " and ") + u.str();
        return error(strCat("the shapes ", shapes, " do not broadcast (dim ", d, ": ", out.str(),
                            " vs ", dim.str(), ")"));
      }
      ConstraintStore &store = function().constraints();
      if (store.provablyEqual(out, dim))
        continue;
      // Two symbols of the inputs: equal, or one of them 1 at a call. The
      // result is a symbol of its own, and the compile driver speculates
      // (transforms/SpeculateBroadcasts.h).
      if (speculatable(out) && speculatable(dim)) {
        XS_ASSIGN_OR_RETURN(out, broadcastResult(out, dim));
        continue;
      }
      // Otherwise ONNX requires them equal; the symbolic side takes the
      // other's value.
      if (absl::Status s = store.addEqual(out, dim); !s.ok())
        return error(std::string(s.message()));
      if (!out.isConstant())
        out = dim;
    }
  }
  return shape;
}

bool ImportContext::speculatable(const DimExpr &dim) const {
  if (!dim.isSymbol())
    return false;
  const ConstraintStore &store = graph_.function->constraints();
  const std::string &symbol = dim.symbolName();
  if (store.isHostSymbol(symbol))
    return false;
  for (const ConstraintStore::Broadcast &fact : store.broadcasts())
    if (fact.result == symbol)
      return false;
  return true;
}

absl::StatusOr<DimExpr> ImportContext::broadcastResult(const DimExpr &a, const DimExpr &b) {
  ConstraintStore &store = function().constraints();
  for (const ConstraintStore::Broadcast &fact : store.broadcasts())
    if ((fact.a == a && fact.b == b) || (fact.a == b && fact.b == a))
      return DimExpr::symbol(fact.result);
  std::string name = strCat(a.symbolName(), "_or_", b.symbolName());
  for (int k = 2; store.knowsSymbol(name); ++k)
    name = strCat(a.symbolName(), "_or_", b.symbolName(), "_", k);
  if (absl::Status s = store.addBroadcast(name, a, b); !s.ok())
    return error(std::string(s.message()));
  return DimExpr::symbol(name);
}

absl::StatusOr<Value *> ImportContext::broadcastTo(Value *x, const std::vector<DimExpr> &shape) {
  const TensorType &type = x->type();
  if (type.shape() == shape)
    return x;
  int64_t rank = static_cast<int64_t>(shape.size());
  if (type.rank() > rank)
    return error(strCat("cannot broadcast ", type.str(), " to rank ", rank));
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < type.rank(); ++i)
    dims.push_back(i + rank - type.rank());
  return create(OpKind::Broadcast, {x}, {{"dims", Attribute::intList(dims)}},
                TensorType(type.elementType(), shape));
}

absl::StatusOr<std::vector<Value *>> ImportContext::broadcastAll(std::vector<Value *> values) {
  std::vector<TensorType> types;
  for (Value *v : values)
    types.push_back(v->type());
  absl::StatusOr<std::vector<DimExpr>> shape = broadcastShape(types);
  if (!shape.ok())
    return shape.status();
  for (Value *&v : values) {
    absl::StatusOr<Value *> b = broadcastTo(v, *shape);
    if (!b.ok())
      return b.status();
    v = *b;
  }
  return values;
}

absl::StatusOr<Value *> ImportContext::binary(OpKind kind, Value *a, Value *b, AttrDict attrs) {
  absl::StatusOr<std::vector<Value *>> both = broadcastAll({a, b});
  if (!both.ok())
    return both.status();
  return create(kind, {(*both)[0], (*both)[1]}, std::move(attrs));
}

absl::StatusOr<Value *> ImportContext::compare(std::string_view dir, Value *a, Value *b) {
  return binary(OpKind::Compare, a, b, {{"dir", Attribute::enumeration(std::string(dir))}});
}

absl::StatusOr<Value *> ImportContext::unary(OpKind kind, Value *x) { return create(kind, {x}); }

absl::StatusOr<Value *> ImportContext::select(Value *cond, Value *a, Value *b) {
  absl::StatusOr<std::vector<Value *>> all = broadcastAll({cond, a, b});
  if (!all.ok())
    return all.status();
  return create(OpKind::Select, *all);
}

absl::Status ImportContext::checkShape(const std::vector<DimExpr> &shape,
                                       std::string_view what) const {
  // Bounds that keep dimension arithmetic (products of dims in the type
  // rules) far from overflow.
  constexpr int64_t kMaxDim = int64_t(1) << 31;
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t elements = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    for (const DimTerm &term : shape[i].terms())
      if (term.coefficient > kMaxDim || term.coefficient < -kMaxDim)
        return error(strCat(what, " has the dim ", shape[i].str(), " at ", i,
                            ", beyond xstitch's bound of 2^31"));
    std::optional<int64_t> k = shape[i].constantValue();
    if (!k)
      continue;
    if (*k < 0)
      return error(strCat(what, " has the negative dim ", *k, " at ", i));
    if (*k != 0 && elements > kMaxElements / *k)
      return error(strCat(what, " has more than 2^40 elements"));
    elements *= *k;
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ImportContext::normalizeAxis(int64_t axis, int64_t rank,
                                                     std::string_view what) const {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    return error(strCat(what, " ", axis, " is out of range for rank ", rank));
  return a;
}

} // namespace xs
