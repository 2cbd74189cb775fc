#include "ir/Verifier.h"

#include "absl/container/flat_hash_set.h"
#include "ir/HostSymbols.h"
#include "ir/TypeRules.h"

namespace xs {

namespace {

// Compares an op's result type (or a declared function result type) with the
// type its rule infers.
absl::Status requireTypeMatches(const TensorType &actual, const TensorType &inferred,
                                DimUnifier &unifier, const Location &loc, const std::string &what) {
  bool sameRank = actual.rank() == inferred.rank();
  bool ok = actual.elementType() == inferred.elementType() && sameRank;
  for (int64_t d = 0; ok && d < actual.rank(); ++d)
    ok = unifier.requireEqual(actual.dim(d), inferred.dim(d), loc, "").ok();
  if (ok)
    return absl::OkStatus();
  std::string hint;
  if (sameRank && actual.elementType() == inferred.elementType() &&
      unifier.mode() == DimUnifier::Mode::Check)
    hint = "; if the sizes are equal, state it in the `where` clause or run shape-inference";
  return errorAtCat(loc, what, " has type ", actual.str(), ", but its operands give ",
                    inferred.str(), hint);
}

} // namespace

absl::Status verifyFunction(const Function &function, const VerifyOptions &options) {
  // Before shape inference a text may rely on equalities that shape
  // inference will collect (an add of f32[N] and f32[M]); then only provable
  // contradictions are errors, found by collecting into a scratch store.
  // Once types are required, dims must be provably equal under the store.
  ConstraintStore scratch = options.constraints ? *options.constraints : function.constraints();
  DimUnifier unifier(scratch, options.requireKnownTypes ? DimUnifier::Mode::Check
                                                        : DimUnifier::Mode::Collect);
  absl::flat_hash_set<const Value *> defined;
  absl::flat_hash_set<std::string> names;
  for (const auto &param : function.params()) {
    if (!names.insert(param->name()).second)
      return errorAtCat(param->loc(), "redefinition of value '%", param->name(), "'");
    if (!param->type().known())
      return errorAtCat(param->loc(), "parameter '%", param->name(), "' needs a type: write %",
                        param->name(), ": f32[N]");
    defined.insert(param.get());
  }
  for (const auto &op : function.ops()) {
    const Value *result = op->result();
    if (!names.insert(result->name()).second)
      return errorAtCat(op->loc(), "redefinition of value '%", result->name(), "'");
    bool operandsKnown = true;
    for (size_t i = 0; i < op->numOperands(); ++i) {
      const Value *v = op->operand(i);
      if (v == nullptr || !defined.contains(v))
        return errorAtCat(op->loc(), std::string(op->mnemonic()), ": operand ", i,
                          v ? absl::StrCat(" '%", v->name(), "'") : std::string(),
                          " is not defined before this op in @", function.name());
      operandsKnown &= v->type().known();
    }
    if (absl::Status s = verifyAttributes(*op); !s.ok())
      return s;
    if (!op->type().known() && options.requireKnownTypes)
      return errorAtCat(op->loc(), "the type of '%", result->name(),
                        "' is unknown; run shape-inference or write it");
    // An op whose result type is left out still has its operands and
    // attributes checked; ops using its result are checked after inference.
    if (operandsKnown) {
      absl::StatusOr<TensorType> inferred = inferResultType(*op, unifier);
      if (!inferred.ok())
        return inferred.status();
      std::string what =
          absl::StrCat(std::string(op->mnemonic()), ": the result '%", result->name(), "'");
      if (op->type().known())
        if (absl::Status s = requireTypeMatches(op->type(), *inferred, unifier, op->loc(), what);
            !s.ok())
          return s;
    }
    defined.insert(result);
  }
  for (const FunctionResult &r : function.results()) {
    if (r.value == nullptr || !defined.contains(r.value))
      return errorAtCat(r.loc, "result '", r.name, "' of @", function.name(),
                        " is not a value defined in the function");
    if (!r.declaredType.known() || !r.value->type().known())
      continue;
    std::string what = absl::StrCat("result '", r.name, "' is declared ", r.declaredType.str(),
                                    ", but the returned value '%", r.value->name(), "'");
    bool ok = r.declaredType.elementType() == r.value->type().elementType() &&
              r.declaredType.rank() == r.value->type().rank();
    for (int64_t d = 0; ok && d < r.declaredType.rank(); ++d)
      ok = unifier.requireEqual(r.declaredType.dim(d), r.value->type().dim(d), r.loc, "").ok();
    if (!ok)
      return errorAtCat(r.loc, what, " has type ", r.value->type().str());
  }
  return verifyHostSymbols(function);
}

absl::Status verifyModule(const Module &module, const VerifyOptions &options) {
  absl::flat_hash_set<std::string> names;
  for (const auto &function : module.functions()) {
    if (!names.insert(function->name()).second)
      return errorAtCat(function->loc(), "redefinition of function '@", function->name(), "'");
    if (absl::Status s = verifyFunction(*function, options); !s.ok())
      return s;
  }
  return absl::OkStatus();
}

} // namespace xs
