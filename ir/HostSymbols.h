#ifndef XSTITCH_IR_HOSTSYMBOLS_H
#define XSTITCH_IR_HOSTSYMBOLS_H

// Host symbols: dims a function computes at each call from its inputs, for
// sizes no dimension expression can state at compile time (a dim scaled by a
// float and floored, a dim divided by another, a shape held in an input
// tensor). The computation is a small function of its own, run by the
// reference interpreter on the host before the constraints are checked and
// kernel variants chosen; from there on a host symbol is a symbol like any
// other, so kernels stay shape-generic and a new value never recompiles.
//
// Text form, between the signature's results and its `where` clause:
//
//   func @f(%x: f32[N, 4], %shape: i64[2]) -> (y: f32[R0, R1])
//       host_symbols R0, R1 {
//         %r0 = slice %shape {...} : i64[1]   (ops on the parameters)
//         ...
//         return %a, %b                        (one i64[] per symbol)
//       }
//       where R0*R1 == 4*N {

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"
#include "ir/Interpreter.h"

namespace xs {

struct HostSymbols {
  /// symbols[i] takes the value of the computation's result i.
  std::vector<std::string> symbols;
  /// Takes the function's parameters (same names, types and order); each
  /// result is a rank-0 integer; its types mention only the parameters'
  /// symbols, so it runs before any host symbol is known.
  std::unique_ptr<Function> computation;

  /// Parameters whose elements the computation reads; the others only give
  /// their dims (so a device runtime copies just these to the host).
  std::vector<size_t> dataParams() const;
};

/// A parameter's elements, supplied when the computation reads them.
using ParamData = std::function<absl::StatusOr<HostTensor>(size_t param)>;

/// Runs the computation with `bindings` (the parameters' symbols, bound) and
/// binds every host symbol in it. A negative value is an InvalidArgument
/// error naming the symbol and its value.
absl::Status bindHostSymbols(const HostSymbols &hostSymbols, const ParamData &paramData,
                             DimBindings &bindings, const InterpreterOptions &options = {});

/// Adds one host symbol per element of `value`, an integer scalar or vector
/// of a fixed length that `function` computes from its parameters (their
/// values and dims): the ops computing it are copied into the computation.
/// Symbols are named `<prefix>_<k>`. An error says why `value` cannot be
/// computed first (e.g. it depends on dims that are host symbols).
absl::StatusOr<std::vector<DimExpr>> addHostSymbols(Function &function, const Value &value,
                                                    std::string_view prefix);

/// What the op checks cannot see: the computation mirrors `function`'s
/// parameters, returns one rank-0 integer per symbol, uses only the
/// parameters' symbols; host symbols are distinct and name no parameter dim.
absl::Status verifyHostSymbols(const Function &function);

} // namespace xs

#endif // XSTITCH_IR_HOSTSYMBOLS_H
