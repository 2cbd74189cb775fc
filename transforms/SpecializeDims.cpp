#include "transforms/SpecializeDims.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"

namespace xs {
namespace {

using Substitution = absl::flat_hash_map<std::string, DimExpr>;

TensorType substituted(const TensorType &type, const Substitution &map) {
  if (!type.known())
    return type;
  std::vector<DimExpr> shape;
  for (const DimExpr &d : type.shape())
    shape.push_back(d.substitute(map));
  return TensorType(type.elementType(), std::move(shape));
}

AttrDict substituted(const AttrDict &attrs, const Substitution &map) {
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
                                                    const Substitution &map) {
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

absl::StatusOr<std::unique_ptr<Module>> specializeDims(const Function &function,
                                                       const DimBindings &dims) {
  Substitution map;
  std::vector<std::string> symbols;
  for (const auto &[symbol, value] : dims) {
    if (value < 0)
      return absl::InvalidArgumentError(
          strCat("cannot specialize ", symbol, " to ", value, ": dims are at least 0"));
    map[symbol] = DimExpr(value);
    symbols.push_back(symbol);
  }
  std::sort(symbols.begin(), symbols.end());

  auto module = std::make_unique<Module>(function.loc().file);
  Function *out = module->addFunction(function.name(), function.loc());
  for (const auto &param : function.params())
    out->addParam(param->name(), substituted(param->type(), map), param->loc());
  // Facts first, as given, then the values: a value that contradicts a fact
  // is the caller's mistake.
  out->constraints() = function.constraints();
  for (const std::string &symbol : symbols)
    if (absl::Status s = out->constraints().addEqual(DimExpr::symbol(symbol), map.at(symbol));
        !s.ok())
      return absl::InvalidArgumentError(
          strCat("cannot specialize ", symbol, " to ", dims.at(symbol), ": ", s.message()));
  // Divisibility and ranges are facts addEqual does not weigh: a value must
  // satisfy them too.
  const ConstraintStore &facts = out->constraints();
  for (const Constraint &c : facts.facts()) {
    if (c.kind == Constraint::Kind::Divisible) {
      std::optional<int64_t> value = facts.canonicalize(c.expr).constantValue();
      if (value && *value % c.divisor != 0)
        return absl::InvalidArgumentError(strCat("cannot specialize ", absl::StrJoin(symbols, ", "),
                                                 " as given: ", c.str(), " does not hold (it is ",
                                                 *value, ")"));
    } else if (c.kind == Constraint::Kind::Range && dims.contains(c.symbol)) {
      int64_t value = dims.at(c.symbol);
      if (value < c.range.lo || value > c.range.hi)
        return absl::InvalidArgumentError(
            strCat("cannot specialize ", c.symbol, " to ", value, ": the function says ", c.str()));
    }
  }
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

} // namespace xs
