#include "runtime/SpeculatedExecutable.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "runtime/HostPlanExecution.h"

namespace xs {
namespace {

std::string shapeText(const std::vector<int64_t> &shape) {
  return strCat("[", absl::StrJoin(shape, ", "), "]");
}

} // namespace

SpeculatedExecutable::SpeculatedExecutable(HostPlan signature, std::vector<Variant> variants)
    : signature_(std::move(signature)), variants_(std::move(variants)) {
  absl::flat_hash_set<std::string> bound;
  for (size_t p = 0; p < signature_.paramTypes.size(); ++p) {
    const TensorType &type = signature_.paramTypes[p];
    for (int64_t i = 0; i < type.rank(); ++i) {
      const DimExpr &d = type.dim(i);
      if (!d.isSymbol())
        continue;
      if (bound.insert(d.symbolName()).second)
        sources_.push_back({p, i, d.symbolName()});
      DimExpr representative = signature_.constraints.canonicalize(d);
      if (representative.isSymbol() && bound.insert(representative.symbolName()).second)
        sources_.push_back({p, i, representative.symbolName()});
    }
  }
  for (const Variant &variant : variants_)
    for (const DimPredicate &p : variant.assumptions)
      for (const DimExpr &e : {p.lhs, p.rhs})
        for (const std::string &s : e.symbols())
          derive_ = derive_ || !bound.contains(s);
}

absl::StatusOr<RunResult> SpeculatedExecutable::execute(const RunRequest &request,
                                                        RunStats *stats) const {
  XS_ASSIGN_OR_RETURN(const Executable *variant, resolve(request.inputs));
  return variant->execute(request, stats);
}

absl::StatusOr<const Executable *>
SpeculatedExecutable::resolve(const std::vector<TensorView> &inputs) const {
  const std::vector<TensorType> &params = signature_.paramTypes;
  // Inputs of the wrong count or rank: the first variant says what is wrong.
  if (inputs.size() != params.size())
    return variants_.front().executable.get();
  for (size_t p = 0; p < params.size(); ++p)
    if (static_cast<int64_t>(inputs[p].shape.size()) != params[p].rank())
      return variants_.front().executable.get();
  DimBindings dims;
  dims.reserve(sources_.size());
  for (const DimSource &source : sources_)
    dims.try_emplace(source.symbol, inputs[source.param].shape[static_cast<size_t>(source.dim)]);
  if (derive_)
    signature_.constraints.deriveBindings(dims);
  for (const Variant &variant : variants_) {
    absl::StatusOr<bool> holds = evaluateAll(variant.assumptions, dims);
    if (holds.ok() && *holds)
      return variant.executable.get();
  }
  if (!derive_)
    signature_.constraints.deriveBindings(dims); // for the message
  std::vector<std::string> why, shapes;
  for (const ConstraintStore::Broadcast &fact : signature_.constraints.broadcasts()) {
    absl::StatusOr<int64_t> a = fact.a.evaluate(dims), b = fact.b.evaluate(dims);
    if (a.ok() && b.ok() && *a != *b && *a != 1 && *b != 1)
      why.push_back(strCat(fact.a.str(), " = ", *a, " and ", fact.b.str(), " = ", *b));
  }
  for (size_t p = 0; p < inputs.size(); ++p)
    shapes.push_back(strCat(inputName(signature_, p), ": ", shapeText(inputs[p].shape)));
  if (!why.empty())
    return absl::InvalidArgumentError(strCat(
        "the inputs of @", signature_.function, " do not broadcast: ", absl::StrJoin(why, "; "),
        " meet in a broadcast, so they must be equal or one of them 1 (inputs ",
        absl::StrJoin(shapes, ", "), ")"));
  return absl::InvalidArgumentError(strCat(
      "@", signature_.function, " has no compiled variant for these dims (inputs ",
      absl::StrJoin(shapes, ", "), "): its ", variants_.size(),
      " variants are the relations of its broadcast dims with the fewest dims of 1, the most a "
      "compile makes; give those dims equal, or compile with the dims specialized "
      "(xstitch-run --specialize, CompileOptions::specialize)"));
}

size_t speculatedVariantCount(const Executable &executable) {
  const auto *speculated = dynamic_cast<const SpeculatedExecutable *>(&executable);
  return speculated != nullptr ? speculated->numVariants() : 1;
}

const HostPlan &kernelPlan(const Executable &executable) {
  const auto *speculated = dynamic_cast<const SpeculatedExecutable *>(&executable);
  return speculated != nullptr ? speculated->variant(0).plan() : executable.plan();
}

} // namespace xs
