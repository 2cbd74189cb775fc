#include "transforms/SpeculateBroadcasts.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

/// What a variant takes of one fact: its operands equal, or one of them 1.
enum class Relation { Equal, FirstIsOne, SecondIsOne };

/// Classes of the facts' symbols and constants under one choice of
/// relations; a class's value is its constant, else its earliest symbol.
class DimClasses {
public:
  explicit DimClasses(const absl::flat_hash_map<std::string, int64_t> &rank) : rank_(rank) {}

  /// False when the union puts two different constants in one class.
  bool join(const DimExpr &a, const DimExpr &b) {
    std::string ra = find(key(a)), rb = find(key(b));
    if (ra == rb)
      return true;
    DimExpr va = values_.at(ra), vb = values_.at(rb);
    if (va.isConstant() && vb.isConstant() && va != vb)
      return false;
    parent_[rb] = ra;
    values_[ra] = better(va, vb);
    return true;
  }

  /// The value of `symbol`'s class (itself when it is in none).
  DimExpr valueOf(const std::string &symbol) {
    std::string k = key(DimExpr::symbol(symbol));
    return values_.at(find(k));
  }

private:
  std::string key(const DimExpr &e) {
    std::string k = e.isConstant() ? strCat("#", *e.constantValue()) : e.symbolName();
    if (parent_.try_emplace(k, k).second)
      values_[k] = e;
    return k;
  }
  std::string find(const std::string &k) {
    std::string root = k;
    while (parent_.at(root) != root)
      root = parent_.at(root);
    parent_[k] = root;
    return root;
  }
  DimExpr better(const DimExpr &a, const DimExpr &b) const {
    if (a.isConstant() || b.isConstant())
      return a.isConstant() ? a : b;
    auto rankOf = [&](const DimExpr &e) {
      auto it = rank_.find(e.symbolName());
      return it == rank_.end() ? INT64_MAX : it->second;
    };
    return rankOf(b) < rankOf(a) ? b : a;
  }

  const absl::flat_hash_map<std::string, int64_t> &rank_;
  absl::flat_hash_map<std::string, std::string> parent_;
  absl::flat_hash_map<std::string, DimExpr> values_;
};

bool operandOk(const DimExpr &e) { return e.isSymbol() || e.isConstant(); }

/// The variant one choice of relations makes; nullopt when the choice
/// contradicts itself (3 == 1).
std::optional<BroadcastVariant> variantOf(const std::vector<ConstraintStore::Broadcast> &facts,
                                          const std::vector<Relation> &relations,
                                          const absl::flat_hash_map<std::string, int64_t> &rank) {
  DimClasses classes(rank);
  absl::flat_hash_set<std::string> results;
  std::vector<std::string> symbols;
  for (size_t i = 0; i < facts.size(); ++i) {
    const ConstraintStore::Broadcast &fact = facts[i];
    DimExpr result = DimExpr::symbol(fact.result);
    results.insert(fact.result);
    bool ok = true;
    switch (relations[i]) {
    case Relation::Equal:
      ok = classes.join(fact.a, fact.b) && classes.join(result, fact.a);
      break;
    case Relation::FirstIsOne:
      ok = classes.join(fact.a, DimExpr(1)) && classes.join(result, fact.b);
      break;
    case Relation::SecondIsOne:
      ok = classes.join(fact.b, DimExpr(1)) && classes.join(result, fact.a);
      break;
    }
    if (!ok)
      return std::nullopt;
    for (const DimExpr &e : {fact.a, fact.b, result})
      if (e.isSymbol())
        symbols.push_back(e.symbolName());
  }
  std::sort(symbols.begin(), symbols.end(),
            [&](const std::string &x, const std::string &y) { return rank.at(x) < rank.at(y); });
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  BroadcastVariant variant;
  for (const std::string &s : symbols) {
    DimExpr value = classes.valueOf(s);
    if (value == DimExpr::symbol(s))
      continue;
    variant.substitution[s] = value;
    if (!results.contains(s))
      variant.assumptions.push_back({DimExpr::symbol(s), DimPredicate::Op::EQ, value});
  }
  return variant;
}

std::string substitutionKey(const BroadcastVariant &variant) {
  std::vector<std::string> items;
  for (const auto &[symbol, value] : variant.substitution)
    items.push_back(strCat(symbol, "=", value.str()));
  std::sort(items.begin(), items.end());
  return absl::StrJoin(items, ",");
}

} // namespace

std::string BroadcastVariant::str() const {
  std::vector<std::string> items;
  for (const DimPredicate &p : assumptions)
    items.push_back(p.str());
  return absl::StrJoin(items, ", ");
}

absl::StatusOr<std::vector<BroadcastVariant>> broadcastVariants(const Function &function,
                                                                int maxVariants) {
  const ConstraintStore &store = function.constraints();
  std::vector<ConstraintStore::Broadcast> facts = store.broadcasts();
  if (facts.empty())
    return std::vector<BroadcastVariant>();
  for (const ConstraintStore::Broadcast &fact : facts)
    if (!operandOk(fact.a) || !operandOk(fact.b))
      return absl::InvalidArgumentError(strCat(
          "@", function.name(), ": ", fact.result, " == broadcast(", fact.a.str(), ", ",
          fact.b.str(), ") cannot be speculated: broadcast operands must be symbols or constants"));
  // Symbols rank by first appearance, a fact's result after every other
  // symbol: a class keeps the signature's name.
  absl::flat_hash_map<std::string, int64_t> rank;
  std::vector<std::string> order = store.symbolsInOrder();
  absl::flat_hash_set<std::string> results;
  for (const ConstraintStore::Broadcast &fact : facts)
    results.insert(fact.result);
  for (size_t i = 0; i < order.size(); ++i)
    rank[order[i]] = static_cast<int64_t>(i) + (results.contains(order[i]) ? 1 << 30 : 0);
  for (const ConstraintStore::Broadcast &fact : facts)
    for (const DimExpr &e : {fact.a, fact.b, DimExpr::symbol(fact.result)})
      for (const std::string &s : e.symbols())
        rank.try_emplace(s, (int64_t{1} << 31) + static_cast<int64_t>(rank.size()));

  // Relations with `ones` dims of 1, for ones = 0, 1, ...: the choice of
  // which facts are not Equal runs over index combinations.
  std::vector<BroadcastVariant> variants;
  absl::flat_hash_set<std::string> seen;
  size_t k = facts.size();
  // Bounds the work where many facts make most choices duplicates.
  int64_t budget = 4096;
  for (size_t ones = 0; ones <= k && static_cast<int>(variants.size()) < maxVariants; ++ones) {
    std::vector<size_t> pick(ones);
    for (size_t i = 0; i < ones; ++i)
      pick[i] = i;
    while (static_cast<int>(variants.size()) < maxVariants && budget > 0) {
      // Each picked fact takes FirstIsOne or SecondIsOne: 2^ones choices.
      for (uint64_t sides = 0; sides < (uint64_t{1} << ones) && budget > 0 &&
                               static_cast<int>(variants.size()) < maxVariants;
           ++sides, --budget) {
        std::vector<Relation> relations(k, Relation::Equal);
        bool possible = true;
        for (size_t j = 0; j < ones; ++j) {
          bool second = (sides >> j) & 1;
          const ConstraintStore::Broadcast &fact = facts[pick[j]];
          // A constant operand is 1 or it is not: nothing to choose.
          if (!(second ? fact.b : fact.a).isSymbol())
            possible = false;
          relations[pick[j]] = second ? Relation::SecondIsOne : Relation::FirstIsOne;
        }
        if (!possible)
          continue;
        std::optional<BroadcastVariant> variant = variantOf(facts, relations, rank);
        if (!variant || !seen.insert(substitutionKey(*variant)).second)
          continue;
        ConstraintStore check = store;
        if (!recordSubstitution(check, variant->substitution).ok() || !check.broadcasts().empty())
          continue;
        variants.push_back(std::move(*variant));
      }
      // The next combination of `ones` fact indices, in lexicographic order.
      size_t i = ones;
      while (i > 0 && pick[i - 1] == k - ones + i - 1)
        --i;
      if (i == 0)
        break;
      ++pick[i - 1];
      for (size_t j = i; j < ones; ++j)
        pick[j] = pick[j - 1] + 1;
    }
  }
  return variants;
}

size_t variantAt(const Function &function, const std::vector<BroadcastVariant> &variants,
                 DimBindings dims) {
  function.constraints().deriveBindings(dims);
  for (size_t v = 0; v < variants.size(); ++v) {
    absl::StatusOr<bool> holds = evaluateAll(variants[v].assumptions, dims);
    if (holds.ok() && *holds)
      return v;
  }
  return 0;
}

HostPlan speculationSignature(const Function &function,
                              const std::vector<BroadcastVariant> &variants) {
  HostPlan plan;
  plan.function = function.name();
  plan.constraints = function.constraints();
  plan.hostSymbols = function.sharedHostSymbols();
  for (const auto &param : function.params()) {
    plan.paramTypes.push_back(param->type());
    HostBuffer buffer{param->name(), param->type(), HostBuffer::Kind::Input};
    buffer.paramIndex = param->paramIndex();
    plan.buffers.push_back(std::move(buffer));
  }
  for (size_t r = 0; r < function.results().size(); ++r) {
    const FunctionResult &result = function.results()[r];
    HostBuffer buffer{result.name, result.value ? result.value->type() : result.declaredType,
                      HostBuffer::Kind::Output};
    buffer.resultIndex = static_cast<int>(r);
    plan.outputs.push_back(static_cast<int>(plan.buffers.size()));
    plan.buffers.push_back(std::move(buffer));
  }
  absl::flat_hash_set<std::string> symbols;
  for (const BroadcastVariant &variant : variants)
    for (const DimPredicate &p : variant.assumptions)
      for (const DimExpr &e : {p.lhs, p.rhs})
        for (const std::string &s : e.symbols())
          if (symbols.insert(s).second)
            plan.symbols.push_back(s);
  return plan;
}

absl::StatusOr<std::unique_ptr<Module>> speculatedFunction(const Function &function,
                                                           const BroadcastVariant &variant) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<Module> module,
                      substituteDims(function, variant.substitution));
  if (!module->functions().front()->constraints().broadcasts().empty())
    return absl::InternalError(strCat("@", function.name(), ": the variant ", variant.str(),
                                      " leaves a broadcast fact unresolved"));
  XS_RETURN_IF_ERROR(runPipeline(*module, defaultPipeline(), PipelineOptions()));
  return module;
}

} // namespace xs
