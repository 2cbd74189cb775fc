#include "ir/DimPredicate.h"

#include <cassert>

#include "ir/Diagnostics.h"

namespace xs {

namespace {
std::string_view opText(DimPredicate::Op op) {
  switch (op) {
  case DimPredicate::Op::LE:
    return "<=";
  case DimPredicate::Op::LT:
    return "<";
  case DimPredicate::Op::GE:
    return ">=";
  case DimPredicate::Op::GT:
    return ">";
  case DimPredicate::Op::EQ:
    return "==";
  case DimPredicate::Op::NE:
    return "!=";
  }
  assert(false && "unknown predicate op");
  return "?";
}
} // namespace

std::string DimPredicate::str() const { return strCat(lhs.str(), " ", opText(op), " ", rhs.str()); }

absl::StatusOr<bool> DimPredicate::evaluate(const DimBindings &dims) const {
  absl::StatusOr<int64_t> a = lhs.evaluate(dims);
  if (!a.ok())
    return a.status();
  absl::StatusOr<int64_t> b = rhs.evaluate(dims);
  if (!b.ok())
    return b.status();
  switch (op) {
  case Op::LE:
    return *a <= *b;
  case Op::LT:
    return *a < *b;
  case Op::GE:
    return *a >= *b;
  case Op::GT:
    return *a > *b;
  case Op::EQ:
    return *a == *b;
  case Op::NE:
    return *a != *b;
  }
  assert(false && "unknown predicate op");
  return false;
}

absl::StatusOr<bool> evaluateAll(const std::vector<DimPredicate> &predicates,
                                 const DimBindings &dims) {
  for (const DimPredicate &p : predicates) {
    absl::StatusOr<bool> holds = p.evaluate(dims);
    if (!holds.ok() || !*holds)
      return holds;
  }
  return true;
}

} // namespace xs
