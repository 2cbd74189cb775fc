#ifndef XSTITCH_IR_DIMPREDICATE_H
#define XSTITCH_IR_DIMPREDICATE_H

// A comparison of two dim expressions, `lhs OP rhs`. Kernel variants are
// chosen at run time by conjunctions of these (`cols <= 64`).

#include <string>

#include "absl/status/statusor.h"
#include "ir/DimExpr.h"

namespace xs {

struct DimPredicate {
  enum class Op : uint8_t { LE, LT, GE, GT, EQ, NE };
  DimExpr lhs;
  Op op = Op::LE;
  DimExpr rhs;

  /// `C <= 64`.
  std::string str() const;
  /// Evaluates with concrete dims; an unbound symbol is an error.
  absl::StatusOr<bool> evaluate(const DimBindings &dims) const;
};

/// True when every predicate holds (an empty list holds).
absl::StatusOr<bool> evaluateAll(const std::vector<DimPredicate> &predicates,
                                 const DimBindings &dims);

} // namespace xs

#endif // XSTITCH_IR_DIMPREDICATE_H
