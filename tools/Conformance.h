#ifndef XSTITCH_TOOLS_CONFORMANCE_H
#define XSTITCH_TOOLS_CONFORMANCE_H

// xstitch-run --conformance DIR: runs every ONNX test case under DIR (a
// folder with model.onnx and test_data_set_*/{input,output}_N.pb), compares
// its outputs with the expected ones and prints one line per case and one
// summary line. A case is in scope when every operator of its graph is listed
// in IN_SCOPE.txt (in DIR or its parent) and EXCLUDED.txt beside it does not
// name it.

#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "driver/Compiler.h"
#include "tools/common/TerminalProgress.h"

namespace xs {

struct ConformanceOptions {
  std::string dir;
  std::string device = "cpu"; // ref, cpu or cuda:N
  CompileOptions compile;
  /// Only cases whose name contains this.
  std::string filter;
  /// The folder of IN_SCOPE.txt and EXCLUDED.txt; empty: `dir` when it has
  /// them, else its parent.
  std::string scopeDir;
  /// true: graph inputs that feed shape operands (Reshape's shape, Slice's
  /// starts) become constants holding the case's values, so shapes are
  /// known when compiling; false: they stay inputs, and what they shape is
  /// computed at each call (host symbols, ir/HostSymbols.h).
  bool freezeShapeInputs = true;
  /// The case being run and the counts so far, on a terminal.
  ProgressMode progress = ProgressMode::Auto;
};

struct ConformanceSummary {
  int passed = 0, failed = 0, unsupported = 0; // in-scope cases
  int inScope = 0;
  int outOfScope = 0, outOfScopePassed = 0;
};

/// Runs the cases, printing to `out`. Errors: DIR or its scope lists cannot
/// be read.
absl::StatusOr<ConformanceSummary> runConformance(const ConformanceOptions &options,
                                                  std::ostream &out);

} // namespace xs

#endif // XSTITCH_TOOLS_CONFORMANCE_H
