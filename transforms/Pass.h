#ifndef XSTITCH_TRANSFORMS_PASS_H
#define XSTITCH_TRANSFORMS_PASS_H

// The pass table and the pipeline runner. A pass transforms one Function and
// reports whether it changed anything. Every pass is registered once in
// PassRegistry.cpp, which is how xstitch-opt runs any of them alone.

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

using PassFn = absl::StatusOr<bool> (*)(Function &function);

struct PassInfo {
  std::string_view name;    // as written in --passes
  std::string_view summary; // one line for --help
  PassFn run;
  /// The pass needs every result type known (shape-inference must run first).
  bool needsKnownTypes;
};

std::span<const PassInfo> allPasses();
const PassInfo *lookupPass(std::string_view name);

struct PipelineOptions {
  bool printAfterAll = false;  // print the module after every pass
  bool printChanged = false;   // print the module after passes that changed it
  bool timePasses = false;     // print a timing table at the end
  bool verifyEach = true;      // run the verifier after every pass
  std::ostream *log = nullptr; // where the three above write (required if any is set)
};

/// Runs the passes by name, in order, on every function of the module. An
/// unknown pass name, a pass that fails, or a verifier failure after a pass
/// returns an error that names the pass.
absl::Status runPipeline(Module &module, const std::vector<std::string> &passNames,
                         const PipelineOptions &options);

/// The passes xstitch-run applies before interpreting or compiling:
/// shape-inference, decompose, constant-fold, algebraic-simplify, cse, dce.
const std::vector<std::string> &defaultPipeline();

} // namespace xs

#endif // XSTITCH_TRANSFORMS_PASS_H
