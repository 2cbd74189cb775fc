#ifndef XSTITCH_IR_VERIFIER_H
#define XSTITCH_IR_VERIFIER_H

// Structural and type checks of a Module. Every pass's output must verify.

#include "absl/status/status.h"
#include "ir/IR.h"

namespace xs {

struct VerifyOptions {
  /// When false, results whose type is still unknown (text that left a type
  /// out, before shape inference) are accepted and skipped.
  bool requireKnownTypes = true;
  /// The facts dims are compared under; nullptr: the function's own. A host
  /// symbols' computation is checked under its function's facts.
  const ConstraintStore *constraints = nullptr;
};

/// Checks: unique value names, operands defined before use and within the
/// function, operand counts, attributes against the op table, each result
/// type equal to the type its rule infers (dims compared through the
/// function's constraint store), and function results against their declared
/// types. The first violation is returned as `file:line:col: error: ...`.
absl::Status verifyModule(const Module &module, const VerifyOptions &options = {});
absl::Status verifyFunction(const Function &function, const VerifyOptions &options = {});

} // namespace xs

#endif // XSTITCH_IR_VERIFIER_H
