#ifndef XSTITCH_IR_TYPERULES_H
#define XSTITCH_IR_TYPERULES_H

// The typing rules of every op, one function per TypeRule family (Ops.def).
// One implementation serves three clients, which differ only in what happens
// when two dims must be equal:
//   - the verifier (DimUnifier::Mode::Check): they must be provably equal;
//   - shape inference (Mode::Collect): unless provably different, the
//     equality is recorded in the function's ConstraintStore;
//   - Builder, for ops created by passes (Mode::Check).
// Rules also check operand counts, element types and attribute values, and
// apply the documented defaults of optional attributes.

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

class DimUnifier {
public:
  enum class Mode { Check, Collect };
  DimUnifier(ConstraintStore &store, Mode mode) : store_(store), mode_(mode) {}

  /// Requires a == b; `what` describes the pair for the error message, e.g.
  /// "dim 1 of operand 0 and dim 1 of operand 1 of add". Errors are located at
  /// `loc`.
  absl::Status requireEqual(const DimExpr &a, const DimExpr &b, const Location &loc,
                            std::string_view what);
  const ConstraintStore &store() const { return store_; }
  Mode mode() const { return mode_; }

private:
  ConstraintStore &store_;
  Mode mode_;
};

/// Computes the result type of `op` from its operands' types and its
/// attributes. For ops flagged kResultTypeRequired, the declared result type
/// (op.type()) is validated against the operands and returned. Operand types
/// must be known. Errors are located at op.loc().
absl::StatusOr<TensorType> inferResultType(const Operation &op, DimUnifier &unifier);

/// Checks attribute presence and kinds against the op table (unknown names,
/// missing required attributes, wrong kinds). The parser already enforces
/// this for text input; passes call it through the verifier.
absl::Status verifyAttributes(const Operation &op);

} // namespace xs

#endif // XSTITCH_IR_TYPERULES_H
