// Dispatch of the typing rules, the DimUnifier, attribute checks against the
// op table, and the helpers every rule family shares.

#include "ir/TypeRules.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "ir/TypeRulesSupport.h"

namespace xs {

namespace {

std::string howToStateEqual(const DimExpr &a, const DimExpr &b) {
  return absl::StrCat("state `where ", a.str(), " == ", b.str(),
                      "` in the signature or run shape-inference");
}

} // namespace

absl::Status DimUnifier::requireEqual(const DimExpr &a, const DimExpr &b, const Location &loc,
                                      std::string_view what) {
  if (store_.provablyEqual(a, b))
    return absl::OkStatus();
  if (store_.provablyDifferent(a, b))
    return errorAtCat(loc, rules::piece(what), " must be equal, but ", a.str(), " and ", b.str(),
                      " can never be equal");
  if (mode_ == Mode::Check)
    return errorAtCat(loc, rules::piece(what), " must be equal, but ", a.str(), " and ", b.str(),
                      " are not known to be equal; ", howToStateEqual(a, b));
  if (absl::Status s = store_.addEqual(a, b); !s.ok())
    return errorAtCat(loc, rules::piece(what), " must be equal, but ", s.message());
  return absl::OkStatus();
}

absl::Status verifyAttributes(const Operation &op) {
  const OpInfo &info = op.info();
  for (const auto &[name, attr] : op.attrs()) {
    const AttrSpec *spec = info.findAttr(name);
    if (!spec) {
      std::vector<std::string> known;
      for (const AttrSpec &s : info.attrs)
        known.emplace_back(s.name);
      if (known.empty())
        return rules::opError(op, "unknown attribute '", name, "'; ", op.mnemonic(),
                              " takes no attributes");
      return rules::opError(op, "unknown attribute '", name, "'; ", op.mnemonic(), " takes ",
                            absl::StrJoin(known, ", "));
    }
    if (attr.kind() != spec->kind)
      return rules::opError(op, "attribute '", name, "' must be ", attrKindName(spec->kind),
                            ", but it is ", attrKindName(attr.kind()));
  }
  for (const AttrSpec &s : info.attrs)
    if (s.required && !op.attr(s.name))
      return rules::opError(op, "missing attribute '", s.name, "' (", attrKindName(s.kind), ")");
  return absl::OkStatus();
}

absl::StatusOr<TensorType> inferResultType(const Operation &op, DimUnifier &unifier) {
  const OpInfo &info = op.info();
  int n = static_cast<int>(op.numOperands());
  if (n < info.minOperands || (info.maxOperands >= 0 && n > info.maxOperands)) {
    std::string expected = info.minOperands == info.maxOperands ? absl::StrCat(info.minOperands)
                           : info.maxOperands < 0
                               ? absl::StrCat("at least ", info.minOperands)
                               : absl::StrCat(info.minOperands, " to ", info.maxOperands);
    return rules::opError(op, "expects ", expected, " operand", expected == "1" ? "" : "s",
                          ", but has ", n);
  }
  for (size_t i = 0; i < op.numOperands(); ++i)
    assert(op.operand(i)->type().known() && "inferResultType needs known operand types");
  if (absl::Status s = verifyAttributes(op); !s.ok())
    return s;
  if (info.hasFlag(kResultTypeRequired) && !op.type().known())
    return rules::opError(op, "the result type must be written, e.g. `%r = ", op.mnemonic(),
                          " ... : f32[N, 4]`");

  switch (info.rule) {
  case TypeRule::UnaryNumeric:
  case TypeRule::UnaryFloat:
  case TypeRule::UnaryPredicate:
  case TypeRule::UnaryLogical:
  case TypeRule::BinaryNumeric:
  case TypeRule::BinaryLogical:
  case TypeRule::Compare:
  case TypeRule::Select:
  case TypeRule::Cast:
    return rules::inferElementwise(op, unifier);
  case TypeRule::Constant:
  case TypeRule::Iota:
  case TypeRule::DimValue:
    return rules::inferSource(op, unifier);
  case TypeRule::Broadcast:
  case TypeRule::Reshape:
  case TypeRule::Transpose:
  case TypeRule::Slice:
  case TypeRule::Concat:
  case TypeRule::Pad:
  case TypeRule::Gather:
  case TypeRule::TakeAlongAxis:
    return rules::inferShape(op, unifier);
  case TypeRule::Reduce:
  case TypeRule::ArgReduce:
  case TypeRule::LayerNorm:
  case TypeRule::RmsNorm:
  case TypeRule::Softmax:
  case TypeRule::Gelu:
  case TypeRule::Scan:
  case TypeRule::TopK:
  case TypeRule::Dot:
    return rules::inferReduction(op, unifier);
  }
  assert(false && "unknown type rule");
  return rules::opError(op, "internal error: unknown type rule");
}

namespace rules {

std::string intListStr(const std::vector<int64_t> &list) {
  return absl::StrCat("[", absl::StrJoin(list, ", "), "]");
}

std::string operandName(const Operation &op, size_t i) {
  return op.numOperands() == 1 ? std::string("the operand") : absl::StrCat("operand ", i);
}

namespace {

absl::Status requireElementClass(const Operation &op, size_t i, bool ok, std::string_view need) {
  if (ok)
    return absl::OkStatus();
  const TensorType &t = op.operand(i)->type();
  return opError(op, operandName(op, i), " has type ", t.str(), ", but ", op.mnemonic(), " needs ",
                 need);
}

} // namespace

absl::Status requireFloat(const Operation &op, size_t i) {
  return requireElementClass(op, i, isFloat(op.operand(i)->type().elementType()),
                             "a float type (f32, f16, bf16, f64)");
}

absl::Status requireNumeric(const Operation &op, size_t i) {
  ElementType t = op.operand(i)->type().elementType();
  return requireElementClass(op, i, isFloat(t) || isInteger(t),
                             "a numeric type (float or integer, not i1)");
}

absl::Status requireLogical(const Operation &op, size_t i) {
  ElementType t = op.operand(i)->type().elementType();
  return requireElementClass(op, i, isBool(t) || isInteger(t), "i1 or an integer type");
}

absl::Status requireIntegerIndices(const Operation &op, size_t i) {
  return requireElementClass(op, i, isInteger(op.operand(i)->type().elementType()),
                             "integer indices (i8, u8, i32, i64) there");
}

absl::Status requireSameElementType(const Operation &op, size_t i, size_t j,
                                    std::string_view advice) {
  const TensorType &a = op.operand(i)->type(), &b = op.operand(j)->type();
  if (a.elementType() == b.elementType())
    return absl::OkStatus();
  return opError(op, "operand ", j, " has type ", b.str(), " but operand ", i, " has ", a.str(),
                 "; ", advice);
}

absl::Status requireSameShape(const Operation &op, DimUnifier &u, size_t i, size_t j,
                              std::string_view advice) {
  const TensorType &a = op.operand(i)->type(), &b = op.operand(j)->type();
  std::string message = absl::StrCat("operand ", j, " has type ", b.str(), " but operand ", i,
                                     " has ", a.str(), "; ", piece(advice));
  if (a.rank() != b.rank())
    return opError(op, message);
  for (int64_t d = 0; d < a.rank(); ++d)
    if (absl::Status s = requireDimEqual(op, u, a.dim(d), b.dim(d), message); !s.ok())
      return s;
  return absl::OkStatus();
}

absl::Status requireDimEqual(const Operation &op, DimUnifier &u, const DimExpr &a, const DimExpr &b,
                             std::string_view message) {
  if (u.requireEqual(a, b, op.loc(), "").ok())
    return absl::OkStatus();
  if (u.mode() == DimUnifier::Mode::Check && !u.store().provablyDifferent(a, b))
    return opError(op, message, " (", a.str(), " and ", b.str(), " are not known to be equal; ",
                   howToStateEqual(a, b), ")");
  return opError(op, message);
}

bool provablyNegative(const DimUnifier &u, const DimExpr &e) {
  std::optional<DimRange> bounds = u.store().boundsOf(e);
  return bounds && bounds->hi < 0;
}

absl::Status requireAxis(const Operation &op, std::string_view what, int64_t axis, int64_t rank,
                         const TensorType &type) {
  if (axis >= 0 && axis < rank)
    return absl::OkStatus();
  if (rank == 0)
    return opError(op, what, " = ", axis, " is out of range: ", type.str(), " has rank 0");
  return opError(op, what, " = ", axis, " is out of range for ", type.str(), " of rank ", rank,
                 "; it must be in [0, ", rank - 1, "]");
}

absl::Status requireEnum(const Operation &op, std::string_view name,
                         const std::vector<std::string_view> &allowed) {
  const Attribute *a = op.attr(name);
  if (!a || std::ranges::count(allowed, std::string_view(a->getEnum())))
    return absl::OkStatus();
  return opError(op, "unknown value '", a->getEnum(), "' of attribute '", name, "'; it must be ",
                 absl::StrJoin(std::vector<std::string>(allowed.begin(), allowed.end()), ", "));
}

absl::Status requireDimList(const Operation &op, std::string_view name,
                            const std::vector<int64_t> &dims, int64_t rank,
                            const TensorType &operandType) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= rank)
      return opError(op, name, " = ", intListStr(dims), " has ", dims[i], ", out of range for ",
                     operandType.str(), " of rank ", rank);
    if (i > 0 && dims[i] <= dims[i - 1])
      return opError(op, name, " = ", intListStr(dims), " must be strictly increasing");
  }
  return absl::OkStatus();
}

} // namespace rules

} // namespace xs
