#ifndef XSTITCH_IR_INTERPRETER_H
#define XSTITCH_IR_INTERPRETER_H

// The reference interpreter: evaluates a function op by op on HostTensors,
// in f64 for float types and exactly for integers (wrapping to the result
// type's width). It is the correctness oracle for every backend and
// transform, so it favours obvious code over speed.
//
// Semantics that are easy to get wrong, fixed here and in docs/ir.md:
//   - float results are not rounded to their element type between ops
//     (only cast rounds), so the oracle is the exact computation;
//   - integer div and rem truncate toward zero; division by zero is an error;
//   - max/min propagate NaN; argmax/argmin return the first extreme index;
//   - gather indices may be negative (counted from the end); out of range is
//     an error naming the op.
// Precondition: every result type is known (run shape inference first).

#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"

namespace xs {

struct InterpreterOptions {
  /// Upper bound on the elements of any one tensor, so a typo in --dim cannot
  /// exhaust memory; exceeding it is an error.
  int64_t maxElementsPerTensor = int64_t(1) << 31;
  /// Each op's float results are rounded to their element type (f32, f16,
  /// bf16), as compiled code stores them, so the interpreter is the
  /// reference for what the IR means: `(x*1e30*1e30)/1e30` overflows to inf
  /// in f32. false: f64 throughout, without rounding between ops (only
  /// `cast` rounds), the exact result of the graph (`xstitch-run
  /// --oracle=f64`).
  bool roundEachOp = true;
};

/// Binds symbolic dims from the parameter shapes: a dim that is a bare symbol
/// binds that symbol; every other dim (constants, expressions) is checked.
/// Errors name the parameter and the dim.
absl::StatusOr<DimBindings> bindDims(const Function &function,
                                     const std::vector<HostTensor> &inputs);

/// Runs `function` on `inputs` (one per parameter, in order). Checks input
/// element types and shapes, binds dims, checks the function's constraints,
/// then evaluates every op. Returns one tensor per function result.
absl::StatusOr<std::vector<HostTensor>> interpret(const Function &function,
                                                  const std::vector<HostTensor> &inputs,
                                                  const InterpreterOptions &options = {});

/// Evaluates one op on concrete operand values (used by constant folding).
/// `bindings` gives values to symbols in the op's attributes and result type.
absl::StatusOr<HostTensor> evaluateOp(const Operation &op,
                                      const std::vector<const HostTensor *> &operands,
                                      const DimBindings &bindings,
                                      const InterpreterOptions &options = {});

} // namespace xs

#endif // XSTITCH_IR_INTERPRETER_H
