#include "ir/HostSymbols.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/Diagnostics.h"
#include "ir/Verifier.h"

namespace xs {

namespace {

absl::flat_hash_set<std::string> paramSymbols(const Function &function) {
  absl::flat_hash_set<std::string> symbols;
  for (const auto &param : function.params())
    for (const DimExpr &d : param->type().shape())
      for (const std::string &s : d.symbols())
        symbols.insert(s);
  return symbols;
}

/// The first symbol of `dims` outside `allowed`, or empty.
std::string foreignSymbol(const std::vector<DimExpr> &dims,
                          const absl::flat_hash_set<std::string> &allowed) {
  for (const DimExpr &d : dims)
    for (const std::string &s : d.symbols())
      if (!allowed.contains(s))
        return s;
  return "";
}

/// The first symbol of the op's type or dim attributes outside `allowed`.
std::string foreignSymbol(const Operation &op, const absl::flat_hash_set<std::string> &allowed) {
  std::string foreign = foreignSymbol(op.type().shape(), allowed);
  for (const auto &[name, attr] : op.attrs())
    if (foreign.empty() && attr.kind() == AttrKind::DimList)
      foreign = foreignSymbol(attr.getDimList(), allowed);
  return foreign;
}

/// The host symbols each value of the computation gives (usually one).
absl::flat_hash_map<const Value *, std::vector<size_t>> symbolsOf(const HostSymbols &hostSymbols) {
  absl::flat_hash_map<const Value *, std::vector<size_t>> out;
  const std::vector<FunctionResult> &results = hostSymbols.computation->results();
  for (size_t i = 0; i < results.size(); ++i)
    out[results[i].value].push_back(i);
  return out;
}

} // namespace

std::vector<size_t> HostSymbols::dataParams() const {
  std::vector<size_t> params;
  for (const auto &op : computation->ops())
    for (const Value *v : op->operands())
      if (v->isParam())
        params.push_back(static_cast<size_t>(v->paramIndex()));
  std::sort(params.begin(), params.end());
  params.erase(std::unique(params.begin(), params.end()), params.end());
  return params;
}

absl::Status bindHostSymbols(const HostSymbols &hostSymbols, const ParamData &paramData,
                             DimBindings &bindings, const InterpreterOptions &options) {
  const Function &computation = *hostSymbols.computation;
  absl::flat_hash_map<const Value *, std::vector<size_t>> symbols = symbolsOf(hostSymbols);
  absl::flat_hash_map<const Value *, HostTensor> values;
  // A symbol is bound as soon as its value is computed: later ops may use
  // it (a size computed from a size computed at run time).
  auto bind = [&](const Value *v) -> absl::Status {
    auto it = symbols.find(v);
    if (it == symbols.end())
      return absl::OkStatus();
    int64_t value = values.at(v).getInt(0);
    for (size_t i : it->second) {
      const std::string &symbol = hostSymbols.symbols[i];
      if (value < 0)
        return absl::InvalidArgumentError(strCat("host symbol ", symbol, " of @",
                                                 computation.name(), " is ", value,
                                                 " at these inputs; a dim cannot be negative"));
      // A fact may have derived a value already (Expand's E == 8); the
      // computed one wins and the facts' check then compares them.
      bindings[symbol] = value;
    }
    return absl::OkStatus();
  };
  for (size_t p : hostSymbols.dataParams()) {
    absl::StatusOr<HostTensor> data = paramData(p);
    if (!data.ok())
      return data.status();
    values[computation.param(p)] = *std::move(data);
    XS_RETURN_IF_ERROR(bind(computation.param(p)));
  }
  std::vector<const HostTensor *> operands;
  for (const auto &op : computation.ops()) {
    operands.clear();
    for (const Value *v : op->operands())
      operands.push_back(&values.at(v));
    absl::StatusOr<HostTensor> result = evaluateOp(*op, operands, bindings, options);
    if (!result.ok())
      return absl::InvalidArgumentError(strCat(
          "computing the host symbols of @", computation.name(), ": ", result.status().message()));
    values[op->result()] = *std::move(result);
    XS_RETURN_IF_ERROR(bind(op->result()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<DimExpr>> addHostSymbols(Function &function, const Value &value,
                                                    std::string_view prefix) {
  const TensorType &type = value.type();
  std::optional<std::vector<int64_t>> shape = type.staticShape();
  if (!shape || shape->size() > 1 || isFloat(type.elementType()) ||
      type.elementType() == ElementType::I1)
    return absl::InvalidArgumentError(strCat(
        "host symbols come from an integer scalar or vector of a fixed length, not ", type.str()));
  // The ops `value` depends on, copied in program order.
  absl::flat_hash_set<const Operation *> needed;
  std::vector<const Operation *> stack;
  if (value.definingOp())
    stack.push_back(value.definingOp());
  while (!stack.empty()) {
    const Operation *op = stack.back();
    stack.pop_back();
    if (!needed.insert(op).second)
      continue;
    for (const Value *operand : op->operands())
      if (operand->definingOp())
        stack.push_back(operand->definingOp());
  }
  // The host symbols added before are computed before these.
  absl::flat_hash_set<std::string> allowed = paramSymbols(function);
  if (const HostSymbols *earlier = function.hostSymbols())
    allowed.insert(earlier->symbols.begin(), earlier->symbols.end());
  for (const Operation *op : needed)
    if (std::string foreign = foreignSymbol(*op, allowed); !foreign.empty())
      return absl::InvalidArgumentError(
          strCat("it depends on dim ", foreign,
                 ", which is neither a dim of an input nor computed from the inputs"));

  HostSymbols &hostSymbols = function.getOrCreateHostSymbols();
  Function &computation = *hostSymbols.computation;
  absl::flat_hash_map<const Value *, Value *> copies;
  for (size_t p = 0; p < function.params().size(); ++p)
    copies[function.param(p)] = computation.param(p);
  for (const auto &op : function.ops()) {
    if (!needed.contains(op.get()))
      continue;
    std::vector<Value *> operands;
    for (const Value *operand : op->operands())
      operands.push_back(copies.at(operand));
    std::string name = computation.nameInUse(op->result()->name())
                           ? computation.freshName(op->result()->name())
                           : op->result()->name();
    copies[op->result()] =
        computation
            .createOp(op->kind(), std::move(operands), op->attrs(), op->type(), op->loc(), name)
            ->result();
  }

  Value *source = copies.at(&value);
  const int64_t count = shape->empty() ? 1 : (*shape)[0];
  std::vector<DimExpr> symbols;
  for (int64_t k = 0; k < count; ++k) {
    Value *element = source;
    if (!shape->empty()) {
      AttrDict bounds{{"start", Attribute::dimList({DimExpr(k)})},
                      {"limit", Attribute::dimList({DimExpr(k + 1)})}};
      element = computation
                    .createOp(OpKind::Slice, {element}, std::move(bounds),
                              TensorType(type.elementType(), {DimExpr(1)}), value.loc())
                    ->result();
      element = computation
                    .createOp(OpKind::Reshape, {element}, {}, TensorType(type.elementType(), {}),
                              value.loc())
                    ->result();
    }
    if (type.elementType() != ElementType::I64)
      element =
          computation
              .createOp(OpKind::Cast, {element}, {{"to", Attribute::elementType(ElementType::I64)}},
                        TensorType(ElementType::I64, {}), value.loc())
              ->result();
    std::string symbol = strCat(prefix, "_", k);
    for (int suffix = 1; function.constraints().knowsSymbol(symbol) || allowed.contains(symbol);
         ++suffix)
      symbol = strCat(prefix, "_", k, "_", suffix);
    function.constraints().noteHostSymbol(symbol);
    hostSymbols.symbols.push_back(symbol);
    FunctionResult result;
    result.name = symbol;
    result.value = element;
    result.loc = value.loc();
    computation.results().push_back(std::move(result));
    symbols.push_back(DimExpr::symbol(symbol));
  }
  return symbols;
}

absl::Status verifyHostSymbols(const Function &function) {
  const HostSymbols *hostSymbols = function.hostSymbols();
  if (hostSymbols == nullptr)
    return absl::OkStatus();
  const Function &computation = *hostSymbols->computation;
  bool sameParams = computation.params().size() == function.params().size();
  for (size_t p = 0; sameParams && p < function.params().size(); ++p)
    sameParams = computation.param(p)->name() == function.param(p)->name() &&
                 computation.param(p)->type() == function.param(p)->type();
  if (!sameParams)
    return errorAtCat(computation.loc(), "the host symbols of @", function.name(),
                      " must be computed from the function's own parameters");
  if (computation.results().size() != hostSymbols->symbols.size())
    return errorAtCat(computation.loc(), "host_symbols names ", hostSymbols->symbols.size(),
                      " symbols but its 'return' gives ", computation.results().size(), " values");
  absl::flat_hash_set<std::string> allowed = paramSymbols(function);
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < hostSymbols->symbols.size(); ++i) {
    const std::string &symbol = hostSymbols->symbols[i];
    const Location &loc = computation.results()[i].loc;
    if (!seen.insert(symbol).second)
      return errorAtCat(loc, "host symbol ", symbol, " is named twice");
    if (allowed.contains(symbol))
      return errorAtCat(loc, "host symbol ", symbol,
                        " is a dim of a parameter; its value comes from that input's shape");
  }
  VerifyOptions options;
  options.constraints = &function.constraints();
  if (absl::Status s = verifyFunction(computation, options); !s.ok())
    return s;
  // Ops may use the parameters' symbols and the host symbols computed by
  // ops before them.
  absl::flat_hash_map<const Value *, std::vector<size_t>> symbols = symbolsOf(*hostSymbols);
  auto computed = [&](const Value *v) {
    if (auto it = symbols.find(v); it != symbols.end())
      for (size_t i : it->second)
        allowed.insert(hostSymbols->symbols[i]);
  };
  for (const auto &param : computation.params())
    computed(param.get());
  for (const auto &op : computation.ops()) {
    if (std::string foreign = foreignSymbol(*op, allowed); !foreign.empty())
      return errorAtCat(op->loc(), "the host symbols' computation uses symbol ", foreign,
                        " before it is computed; it may use the dims of the parameters of @",
                        function.name(), " and host symbols returned by ops before it");
    computed(op->result());
  }
  for (size_t i = 0; i < computation.results().size(); ++i) {
    const FunctionResult &r = computation.results()[i];
    const TensorType &type = r.value->type();
    if (type.rank() != 0 || isFloat(type.elementType()) || type.elementType() == ElementType::I1)
      return errorAtCat(r.loc, "host symbol ", hostSymbols->symbols[i], " is given '%",
                        r.value->name(), "' of type ", type.str(), "; it needs a rank-0 integer");
  }
  return absl::OkStatus();
}

} // namespace xs
