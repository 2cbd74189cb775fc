#include "tools/RunFlagChecks.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/common/TerminalProgress.h"

namespace xs {
namespace {

absl::Status bad(const std::string &message) { return absl::InvalidArgumentError(message); }

absl::Status checkNumber(const ParsedArgs &args, const char *flag) {
  double value = 0;
  if (args.has(flag) && (!absl::SimpleAtod(args.get(flag), &value) || !(value >= 0)))
    return bad(
        absl::StrCat("--", flag, " needs a non-negative number, not '", args.get(flag), "'"));
  return absl::OkStatus();
}

absl::Status checkInteger(const ParsedArgs &args, const char *flag, int64_t least) {
  int64_t value = 0;
  if (args.has(flag) && (!absl::SimpleAtoi(args.get(flag), &value) || value < least))
    return bad(absl::StrCat("--", flag, " needs an integer of at least ", least, ", not '",
                            args.get(flag), "'"));
  return absl::OkStatus();
}

/// The flags that end the run before it runs (printing code or a plan).
const char *printsAndExits(const ParsedArgs &args) {
  if (args.has("emit"))
    return "emit";
  if (args.has("explain"))
    return "explain";
  return nullptr;
}

} // namespace

absl::Status checkRunFlags(const ParsedArgs &args) {
  for (const char *flag : {"atol", "rtol", "bench-seconds"})
    if (absl::Status s = checkNumber(args, flag); !s.ok())
      return s;
  if (absl::Status s = checkInteger(args, "iters", 1); !s.ok())
    return s;
  if (absl::Status s = checkInteger(args, "seed", 0); !s.ok())
    return s;
  if (absl::Status s = checkInteger(args, "print-max-elements", 0); !s.ok())
    return s;
  if (absl::StatusOr<ProgressMode> mode = parseProgressMode(args.get("progress", "auto"));
      !mode.ok())
    return bad(std::string(mode.status().message()));
  if (std::string oracle = args.get("oracle", "rounded"); oracle != "rounded" && oracle != "f64")
    return bad(absl::StrCat("--oracle needs rounded or f64, got '", oracle, "'"));
  for (const char *flag : {"iters", "bench-seconds"})
    if (args.has(flag) && !args.has("bench"))
      return bad(absl::StrCat("--", flag, " says how long --bench times; pass --bench too"));
  if (args.has("iters") && args.has("bench-seconds"))
    return bad("--iters and --bench-seconds both say how long --bench times; pass one of them");
  if (args.has("oracle") && !args.has("check"))
    return bad("--oracle says what --check compares with; pass --check too");
  if (std::string shuffles = args.get("amdgpu-shuffles", "dpp");
      shuffles != "dpp" && shuffles != "bpermute")
    return bad(absl::StrCat("--amdgpu-shuffles needs dpp or bpermute, got '", shuffles, "'"));
  if (args.has("report") && args.get("report") != "json")
    return bad(absl::StrCat("--report supports only json, got '", args.get("report"), "'"));

  // Flags that print code or a plan and exit exclude those that need a run.
  if (const char *exits = printsAndExits(args)) {
    for (const char *flag :
         {"emit", "explain", "check", "bench", "report", "output", "expected", "trace"})
      if (std::string(flag) != exits && args.has(flag))
        return bad(absl::StrCat(
            "--", exits, " prints the ", std::string(exits) == "emit" ? "code" : "plan",
            " and exits without running, so --", flag, " would do nothing; pass one of them"));
  }
  for (const std::string &spec : args.getAll("output")) {
    size_t eq = spec.find('=');
    std::string path = eq == std::string::npos ? spec : spec.substr(eq + 1);
    if (!absl::EndsWith(path, ".npy") && !absl::EndsWith(path, ".pb"))
      return bad(absl::StrCat("--output ", spec,
                              ": results are written as .npy (NumPy) or .pb "
                              "(ONNX TensorProto) files; name the file so"));
  }
  if (args.has("conformance"))
    for (const char *flag : {"check", "bench", "emit", "explain", "output", "expected", "input"})
      if (args.has(flag))
        return bad(absl::StrCat("--conformance runs ONNX's test cases with their own inputs "
                                "and outputs; --",
                                flag, " does not apply to it"));
  return absl::OkStatus();
}

} // namespace xs
