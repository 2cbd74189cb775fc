#include "ir/HostSymbols.h"

#include <algorithm>

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
  absl::flat_hash_map<const Value *, HostTensor> values;
  for (size_t p : hostSymbols.dataParams()) {
    absl::StatusOr<HostTensor> data = paramData(p);
    if (!data.ok())
      return data.status();
    values[computation.param(p)] = *std::move(data);
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
  }
  const std::vector<FunctionResult> &results = computation.results();
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string &symbol = hostSymbols.symbols[i];
    int64_t value = values.at(results[i].value).getInt(0);
    if (value < 0)
      return absl::InvalidArgumentError(strCat("host symbol ", symbol, " of @", computation.name(),
                                               " is ", value,
                                               " at these inputs; a dim cannot be negative"));
    auto [it, inserted] = bindings.try_emplace(symbol, value);
    if (!inserted && it->second != value)
      return absl::InvalidArgumentError(strCat("host symbol ", symbol, " of @", computation.name(),
                                               " is ", value, " but is also ", it->second));
  }
  return absl::OkStatus();
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
  if (absl::Status s = verifyFunction(computation); !s.ok())
    return s;
  for (const auto &op : computation.ops()) {
    std::string foreign = foreignSymbol(op->type().shape(), allowed);
    for (const auto &[name, attr] : op->attrs())
      if (foreign.empty() && attr.kind() == AttrKind::DimList)
        foreign = foreignSymbol(attr.getDimList(), allowed);
    if (!foreign.empty())
      return errorAtCat(op->loc(), "the host symbols' computation uses symbol ", foreign,
                        ", which is not a dim of a parameter of @", function.name(),
                        ": it runs before any other symbol is known");
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
