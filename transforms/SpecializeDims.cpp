#include "transforms/SpecializeDims.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"

namespace xs {
namespace {

TensorType substituted(const TensorType &type, const DimSubstitution &map) {
  if (!type.known())
    return type;
  std::vector<DimExpr> shape;
  for (const DimExpr &d : type.shape())
    shape.push_back(d.substitute(map));
  return TensorType(type.elementType(), std::move(shape));
}

AttrDict substituted(const AttrDict &attrs, const DimSubstitution &map) {
  AttrDict out = attrs;
  for (auto &[name, attr] : out) {
    if (attr.kind() != AttrKind::DimList)
      continue;
    std::vector<DimExpr> dims;
    for (const DimExpr &d : attr.getDimList())
      dims.push_back(d.substitute(map));
    attr = Attribute::dimList(std::move(dims));
  }
  return out;
}

/// Copies the ops of `from` into `to` (whose parameters are already there,
/// in order), substituting dims; returns the map from old values to new.
absl::flat_hash_map<const Value *, Value *> copyOps(const Function &from, Function &to,
                                                    const DimSubstitution &map) {
  absl::flat_hash_map<const Value *, Value *> values;
  for (size_t p = 0; p < from.params().size(); ++p)
    values[from.param(p)] = to.param(p);
  for (const auto &op : from.ops()) {
    std::vector<Value *> operands;
    for (Value *v : op->operands())
      operands.push_back(values.at(v));
    Operation *copy = to.createOp(op->kind(), std::move(operands), substituted(op->attrs(), map),
                                  substituted(op->type(), map), op->loc(), op->result()->name());
    values[op->result()] = copy->result();
  }
  return values;
}

} // namespace

absl::Status recordSubstitution(ConstraintStore &store, const DimSubstitution &map) {
  std::vector<std::string> symbols;
  for (const auto &[symbol, value] : map)
    symbols.push_back(symbol);
  std::sort(symbols.begin(), symbols.end());
  // The facts first, as given, then the substitution: one that contradicts
  // a fact is the caller's mistake.
  for (const std::string &symbol : symbols)
    if (absl::Status s = store.addEqual(DimExpr::symbol(symbol), map.at(symbol)); !s.ok())
      return absl::InvalidArgumentError(
          strCat(symbol, " = ", map.at(symbol).str(), ": ", s.message()));
  // Divisibility and ranges are facts addEqual does not weigh: constants
  // must satisfy them too.
  for (const Constraint &c : store.facts()) {
    if (c.kind == Constraint::Kind::Divisible) {
      std::optional<int64_t> value = store.canonicalize(c.expr).constantValue();
      if (value && *value % c.divisor != 0)
        return absl::InvalidArgumentError(strCat(c.str(), " does not hold (it is ", *value, ")"));
    } else if (c.kind == Constraint::Kind::Range) {
      std::optional<int64_t> value = store.canonicalize(DimExpr::symbol(c.symbol)).constantValue();
      if (value && (*value < c.range.lo || *value > c.range.hi))
        return absl::InvalidArgumentError(
            strCat(c.symbol, " = ", *value, " but the function says ", c.str()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Module>> substituteDims(const Function &function,
                                                       const DimSubstitution &map) {
  auto module = std::make_unique<Module>(function.loc().file);
  Function *out = module->addFunction(function.name(), function.loc());
  for (const auto &param : function.params())
    out->addParam(param->name(), substituted(param->type(), map), param->loc());
  out->constraints() = function.constraints();
  XS_RETURN_IF_ERROR(recordSubstitution(out->constraints(), map));
  if (const HostSymbols *hostSymbols = function.hostSymbols()) {
    HostSymbols &copy = out->getOrCreateHostSymbols();
    copy.symbols = hostSymbols->symbols;
    absl::flat_hash_map<const Value *, Value *> values =
        copyOps(*hostSymbols->computation, *copy.computation, map);
    for (const FunctionResult &r : hostSymbols->computation->results())
      copy.computation->results().push_back(
          {r.name, values.at(r.value), substituted(r.declaredType, map), r.loc});
  }
  absl::flat_hash_map<const Value *, Value *> values = copyOps(function, *out, map);
  for (const FunctionResult &r : function.results())
    out->results().push_back(
        {r.name, r.value ? values.at(r.value) : nullptr, substituted(r.declaredType, map), r.loc});
  return module;
}

absl::StatusOr<std::unique_ptr<Module>> specializeDims(const Function &function,
                                                       const DimBindings &dims) {
  DimSubstitution map;
  std::vector<std::string> symbols;
  for (const auto &[symbol, value] : dims) {
    if (value < 0)
      return absl::InvalidArgumentError(
          strCat("cannot specialize ", symbol, " to ", value, ": dims are at least 0"));
    map[symbol] = DimExpr(value);
    symbols.push_back(symbol);
  }
  std::sort(symbols.begin(), symbols.end());
  absl::StatusOr<std::unique_ptr<Module>> module = substituteDims(function, map);
  if (!module.ok())
    return absl::InvalidArgumentError(strCat("cannot specialize ", absl::StrJoin(symbols, ", "),
                                             " as given: ", module.status().message()));
  return module;
}

} // namespace xs
