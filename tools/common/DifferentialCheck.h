#ifndef XSTITCH_TOOLS_COMMON_DIFFERENTIALCHECK_H
#define XSTITCH_TOOLS_COMMON_DIFFERENTIALCHECK_H

// Compiled code against the reference interpreter: the oracle runs the
// untransformed graph (shape inference only), the device runs the graph after
// the default pipeline, compiled by the driver. Shared by xstitch-run,
// xstitch-graph-fuzz and the differential unit tests.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/Compiler.h"
#include "ir/HostTensor.h"
#include "ir/IR.h"
#include "runtime/Executable.h"
#include "tools/common/TensorCompare.h"

namespace xs {

/// Parses `text` (exactly one function) and runs `passes` on it.
absl::StatusOr<std::unique_ptr<Module>> parseSingleFunction(std::string_view text,
                                                            const std::vector<std::string> &passes);

/// Converts `inputs` to device tensors, runs `executable` and converts the
/// results back.
absl::StatusOr<std::vector<HostTensor>> runExecutable(const Executable &executable,
                                                      const std::vector<HostTensor> &inputs,
                                                      RunStats *stats = nullptr);

struct DifferentialResult {
  bool passed = false;
  /// The interpreter refused the inputs (an index out of range, an integer
  /// division by zero: InvalidArgument) and so did the compiled run: they
  /// agree, `passed` is true and `message` holds both errors.
  bool refused = false;
  /// Per mismatching result: its name, counts and worst elements.
  std::string message;
};

/// Compares every result of the compiled function with the interpreter's
/// within `tolerance`. Where the interpreter refuses the inputs
/// (InvalidArgument), the compiled run must refuse them too: results where
/// it gave an error are a failure (`passed` false). A failure to compile, or
/// to run inputs the interpreter accepts, is an error status (the caller
/// decides whether that fails the check: it should, for valid graphs).
absl::StatusOr<DifferentialResult> runDifferential(std::string_view text,
                                                   const std::vector<HostTensor> &inputs,
                                                   const CompileOptions &options,
                                                   Tolerance tolerance);
/// The same with a tolerance per result (RandomGraph::tolerances).
absl::StatusOr<DifferentialResult> runDifferential(std::string_view text,
                                                   const std::vector<HostTensor> &inputs,
                                                   const CompileOptions &options,
                                                   const std::vector<Tolerance> &tolerances);

/// The comparison of one result for people: "" when it passes.
std::string describeMismatch(const std::string &name, const HostTensor &actual,
                             const HostTensor &expected, Tolerance tolerance);

} // namespace xs

#endif // XSTITCH_TOOLS_COMMON_DIFFERENTIALCHECK_H
