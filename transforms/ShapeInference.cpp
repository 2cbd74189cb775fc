#include "transforms/ShapeInference.h"

#include "absl/strings/str_cat.h"
#include "ir/HostSymbols.h"
#include "ir/TypeRules.h"
#include "ir/Verifier.h"

namespace xs {

namespace {

void noteSymbols(ConstraintStore &store, const TensorType &type) {
  if (!type.known())
    return;
  for (const DimExpr &d : type.shape())
    for (const std::string &s : d.symbols())
      store.noteSymbol(s);
}

// Everything shape inference may rewrite, as text, to report whether it
// changed the function.
std::string snapshot(const Function &f) {
  std::string out;
  for (const auto &p : f.params())
    absl::StrAppend(&out, p->type().str(), ";");
  for (const auto &op : f.ops()) {
    absl::StrAppend(&out, op->type().str(), "{");
    for (const auto &[name, attr] : op->attrs())
      if (attr.kind() == AttrKind::DimList)
        absl::StrAppend(&out, name, "=", attr.str(), ",");
    absl::StrAppend(&out, "};");
  }
  for (const FunctionResult &r : f.results())
    absl::StrAppend(&out, r.declaredType.str(), ";");
  for (const Constraint &c : f.constraints().facts())
    absl::StrAppend(&out, c.str(), ";");
  if (const HostSymbols *hostSymbols = f.hostSymbols())
    absl::StrAppend(&out, snapshot(*hostSymbols->computation));
  return out;
}

// Element type and rank must match; dims are unified (collecting equalities).
absl::Status unifyTypes(const TensorType &declared, const TensorType &inferred, DimUnifier &unifier,
                        const Location &loc, const std::string &what) {
  bool ok = declared.elementType() == inferred.elementType() && declared.rank() == inferred.rank();
  for (int64_t d = 0; ok && d < declared.rank(); ++d)
    ok = unifier.requireEqual(declared.dim(d), inferred.dim(d), loc, "").ok();
  if (ok)
    return absl::OkStatus();
  return errorAtCat(loc, what, " is declared ", declared.str(), ", but ", inferred.str(),
                    " is inferred; they can never be equal");
}

TensorType canonicalType(const ConstraintStore &store, const TensorType &type) {
  if (!type.known())
    return type;
  std::vector<DimExpr> shape;
  for (const DimExpr &d : type.shape())
    shape.push_back(store.canonicalize(d));
  return type.withShape(std::move(shape));
}

// Rewrites every dim of `function` into its canonical form under `store`,
// so that each equality class is spelled by one name.
void canonicalizeDims(Function &function, const ConstraintStore &store) {
  for (const auto &p : function.params())
    p->setType(canonicalType(store, p->type()));
  for (const auto &op : function.ops()) {
    op->result()->setType(canonicalType(store, op->type()));
    std::vector<std::pair<std::string, Attribute>> rewritten;
    for (const auto &[name, attr] : op->attrs()) {
      if (attr.kind() != AttrKind::DimList)
        continue;
      std::vector<DimExpr> dims;
      for (const DimExpr &d : attr.getDimList())
        dims.push_back(store.canonicalize(d));
      rewritten.emplace_back(name, Attribute::dimList(std::move(dims)));
    }
    for (auto &[name, attr] : rewritten)
      op->setAttr(name, std::move(attr));
  }
  for (FunctionResult &r : function.results()) {
    TensorType declared = r.declaredType.known() ? r.declaredType : r.value->type();
    r.declaredType = canonicalType(store, declared);
  }
}

// The host symbols' computation mirrors the parameters, so it is spelled by
// the same names.
void canonicalizeFunction(Function &function) {
  canonicalizeDims(function, function.constraints());
  if (HostSymbols *hostSymbols = function.hostSymbols())
    canonicalizeDims(*hostSymbols->computation, function.constraints());
}

} // namespace

absl::StatusOr<bool> runShapeInference(Function &function) {
  std::string before = snapshot(function);
  ConstraintStore &store = function.constraints();
  for (const auto &p : function.params()) {
    if (!p->type().known())
      return errorAtCat(p->loc(), "parameter '%", p->name(), "' needs a type: write %", p->name(),
                        ": f32[N]");
    noteSymbols(store, p->type());
  }
  DimUnifier unifier(store, DimUnifier::Mode::Collect);
  for (const auto &op : function.ops()) {
    for (size_t i = 0; i < op->numOperands(); ++i)
      if (!op->operand(i)->type().known())
        return errorAtCat(op->loc(), std::string(op->mnemonic()), ": operand ", i, " '%",
                          op->operand(i)->name(), "' is not defined before this op");
    noteSymbols(store, op->type());
    absl::StatusOr<TensorType> inferred = inferResultType(*op, unifier);
    if (!inferred.ok())
      return inferred.status();
    if (op->type().known() && !op->info().hasFlag(kResultTypeRequired)) {
      std::string what =
          absl::StrCat(std::string(op->mnemonic()), ": the result '%", op->result()->name(), "'");
      if (absl::Status s = unifyTypes(op->type(), *inferred, unifier, op->loc(), what); !s.ok())
        return s;
    }
    op->result()->setType(*inferred);
  }
  for (const FunctionResult &r : function.results()) {
    if (!r.declaredType.known())
      continue;
    noteSymbols(store, r.declaredType);
    std::string what = absl::StrCat("result '", r.name, "'");
    if (absl::Status s = unifyTypes(r.declaredType, r.value->type(), unifier, r.loc, what); !s.ok())
      return s;
  }
  canonicalizeFunction(function);
  // The postcondition: the canonical function verifies with every dim
  // provably equal where the rules require it.
  VerifyOptions strict;
  strict.requireKnownTypes = true;
  if (absl::Status s = verifyFunction(function, strict); !s.ok())
    return absl::InternalError(
        absl::StrCat("shape-inference produced IR that does not verify: ", s.message()));
  return snapshot(function) != before;
}

} // namespace xs
