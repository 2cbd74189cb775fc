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
#include "transforms/TargetDescription.h"

namespace xs {

using PassFn = absl::StatusOr<bool> (*)(Function &function);

/// What analysis passes (which print instead of rewriting) get besides the
/// function.
struct PassContext {
  std::ostream *out = nullptr;               // where the analysis prints
  const TargetDescription *target = nullptr; // planning parameters
};
using AnalysisFn = absl::Status (*)(const Function &function, const PassContext &context);

struct PassInfo {
  std::string_view name;    // as written in --passes
  std::string_view summary; // one line for --help
  PassFn run;               // a transform; nullptr for an analysis
  AnalysisFn analyze;       // an analysis that prints (kernel-plan); nullptr for a transform
  /// The pass needs every result type known (shape-inference must run first).
  bool needsKnownTypes;
};

std::span<const PassInfo> allPasses();
const PassInfo *lookupPass(std::string_view name);

struct PipelineOptions {
  bool printAfterAll = false;          // print the module after every pass
  bool printChanged = false;           // print the module after passes that changed it
  bool timePasses = false;             // print a timing table at the end
  bool verifyEach = true;              // run the verifier after every pass
  std::ostream *log = nullptr;         // where the three above write (required if any is set)
  std::ostream *analysisOut = nullptr; // where analyses print (required if one runs)
  /// Planning parameters for analyses such as kernel-plan. Golden tests use
  /// genericCpuTarget() so that plans do not depend on the host.
  TargetDescription target = genericCpuTarget();
};

/// Runs the passes by name, in order, on every function of the module. An
/// unknown pass name, a pass that fails, or a verifier failure after a pass
/// returns an error that names the pass.
absl::Status runPipeline(Module &module, const std::vector<std::string> &passNames,
                         const PipelineOptions &options);

/// The passes xstitch-run applies before interpreting or compiling:
/// shape-inference, decompose, constant-fold, sink-transposes,
/// algebraic-simplify, sink-reshapes, collapse-dims, strength-reduce,
/// cse, dce.
const std::vector<std::string> &defaultPipeline();

} // namespace xs

#endif // XSTITCH_TRANSFORMS_PASS_H
