// xstitch-run: runs a function of a text IR file on a device with given or
// random inputs, prints its outputs, compares them with expected values or
// with the reference interpreter, and times it.

#include <algorithm>
#include <chrono>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "tools/RunInputs.h"
#include "tools/common/CommandLine.h"
#include "tools/common/ExitCodes.h"
#include "tools/common/Npy.h"
#include "tools/common/TensorCompare.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"device", true, false, "ref|auto", "where to run (default auto; this build has: ref)"},
    {"function", true, false, "NAME", "the function to run (default: the only one, or @main)"},
    {"input", true, true, "NAME=PATH|random[:LO:HI]",
     "a parameter's value from a .npy file, or random (the default)"},
    {"dim", true, true, "SYM=N", "the value of a symbolic dim (needed for random inputs)"},
    {"seed", true, false, "N", "seed of the random inputs (default 0)"},
    {"expected", true, true, "NAME=PATH", "compare result NAME with a .npy file"},
    {"atol", true, false, "A", "absolute tolerance (default: by dtype)"},
    {"rtol", true, false, "R", "relative tolerance (default: by dtype)"},
    {"output", true, true, "NAME=PATH", "write result NAME to a .npy file"},
    {"check", false, false, "",
     "compare every result with the reference interpreter on the untransformed graph"},
    {"bench", false, false, "", "time the run: median over --iters runs after one warm-up"},
    {"iters", true, false, "N", "runs for --bench (default 10)"},
    {"help", false, false, "", "show this help"},
};

void printUsage(std::ostream &os) {
  os << "usage: xstitch-run FILE [options]\n"
        "Runs a function of FILE (xstitch text IR) and prints its results.\n"
        "Exit codes: 0 ok, 1 a comparison failed, 2 a user error, 3 an internal error.\n\n"
     << formatFlagHelp(kFlags);
}

// Prints a failed status and returns its exit code.
int report(const absl::Status &s) {
  std::string msg(s.message());
  if (msg.find("error:") == std::string::npos)
    std::cerr << "xstitch-run: error: " << msg << "\n";
  else if (msg.rfind("error:", 0) == 0)
    std::cerr << "xstitch-run: " << msg << "\n";
  else
    std::cerr << msg << "\n";
  return exitCodeFor(s);
}

absl::StatusOr<Function *> selectFunction(const Module &module, const std::string &name,
                                          const std::string &path) {
  if (!name.empty()) {
    std::string bare = name[0] == '@' ? name.substr(1) : name;
    if (Function *f = module.lookup(bare))
      return f;
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": error: no function @", bare, " in this file"));
  }
  if (module.functions().size() == 1)
    return module.functions()[0].get();
  if (Function *f = module.lookup("main"))
    return f;
  std::vector<std::string> names;
  for (const auto &f : module.functions())
    names.push_back("@" + f->name());
  if (names.empty())
    return absl::InvalidArgumentError(absl::StrCat(path, ": error: the file has no function"));
  return absl::InvalidArgumentError(absl::StrCat(path, ": error: the file has several functions (",
                                                 absl::StrJoin(names, ", "),
                                                 "); choose one with --function NAME"));
}

// Parses the file and runs `passes` on it.
absl::StatusOr<std::unique_ptr<Module>> loadModule(const std::string &path,
                                                   const std::vector<std::string> &passes) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModuleFile(path);
  if (!module.ok())
    return module.status();
  PipelineOptions options;
  if (absl::Status s = runPipeline(**module, passes, options); !s.ok())
    return s;
  return module;
}

absl::StatusOr<Tolerance> toleranceFor(const ParsedArgs &args, ElementType t) {
  Tolerance tol = defaultTolerance(t);
  if (args.has("atol") && !absl::SimpleAtod(args.get("atol"), &tol.atol))
    return absl::InvalidArgumentError("--atol needs a number");
  if (args.has("rtol") && !absl::SimpleAtod(args.get("rtol"), &tol.rtol))
    return absl::InvalidArgumentError("--rtol needs a number");
  return tol;
}

// Prints the comparison of one result; returns whether it passed.
bool printComparison(std::string_view what, const std::string &name, const HostTensor &actual,
                     const HostTensor &expected, Tolerance tol) {
  CompareResult r = compareTensors(actual, expected, tol);
  if (!r.shapeMatches) {
    std::cout << what << " " << name << ": FAIL: shape " << actual.typeStr() << " but expected "
              << expected.typeStr() << "\n";
    return false;
  }
  if (r.passed()) {
    std::cout << absl::StrFormat("%s %s: pass (%d elements, max abs error %.3g, atol %g rtol %g)\n",
                                 what, name, r.total, r.maxAbsError, tol.atol, tol.rtol);
    return true;
  }
  std::cout << absl::StrFormat("%s %s: FAIL: %d of %d elements differ (atol %g rtol %g); worst:\n",
                               what, name, r.mismatches, r.total, tol.atol, tol.rtol);
  for (const ElementDiff &d : r.worst)
    std::cout << absl::StrFormat("  at %s: got %.9g, expected %.9g\n",
                                 formatIndex(d.index, actual.shape()), d.actual, d.expected);
  return false;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok())
    return report(args.status());
  if (args->has("help")) {
    printUsage(std::cout);
    return kExitOk;
  }
  if (args->positional().size() != 1) {
    std::cerr << "xstitch-run: error: expected exactly one input file\n";
    printUsage(std::cerr);
    return kExitUserError;
  }
  const std::string path = args->positional()[0];
  std::string device = args->get("device", "auto");
  if (device == "auto")
    device = "ref";
  if (device != "ref")
    return report(absl::InvalidArgumentError(absl::StrCat(
        "device '", device, "' is not available in this build; available devices: ref")));

  // The graph that runs gets the default pipeline; --check compares it with
  // the untransformed graph (shape inference only).
  absl::StatusOr<std::unique_ptr<Module>> module = loadModule(path, defaultPipeline());
  if (!module.ok())
    return report(module.status());
  absl::StatusOr<Function *> function = selectFunction(**module, args->get("function"), path);
  if (!function.ok())
    return report(function.status());

  InputRequest request;
  request.inputs = args->getAll("input");
  request.dims = args->getAll("dim");
  if (args->has("seed") && !absl::SimpleAtoi(args->get("seed"), &request.seed))
    return report(absl::InvalidArgumentError("--seed needs a non-negative integer"));
  absl::StatusOr<BoundInputs> inputs = bindInputs(**function, request);
  if (!inputs.ok())
    return report(inputs.status());

  int iters = 10;
  if (args->has("iters") && (!absl::SimpleAtoi(args->get("iters"), &iters) || iters < 1))
    return report(absl::InvalidArgumentError("--iters needs a positive integer"));

  std::vector<std::string> dimText;
  for (const auto &[sym, v] : inputs->dims)
    dimText.push_back(absl::StrCat(sym, "=", v));
  std::sort(dimText.begin(), dimText.end());
  std::cout << "xstitch-run: @" << (*function)->name() << " on " << device
            << (dimText.empty() ? "" : " with " + absl::StrJoin(dimText, ", ")) << "\n";

  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<HostTensor>> outputs = interpret(**function, inputs->tensors);
  double firstSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outputs.ok())
    return report(outputs.status());

  const auto &results = (*function)->results();
  for (size_t i = 0; i < results.size(); ++i)
    std::cout << "result " << results[i].name << ": " << (*outputs)[i].typeStr() << "  "
              << summarizeTensor((*outputs)[i]) << "\n";

  bool allPassed = true;
  auto resultIndex = [&](const std::string &name) -> std::optional<size_t> {
    for (size_t i = 0; i < results.size(); ++i)
      if (results[i].name == name)
        return i;
    return std::nullopt;
  };
  auto unknownResult = [&](const std::string &flag, const std::string &name) {
    std::vector<std::string> names;
    for (const FunctionResult &r : results)
      names.push_back(r.name);
    return report(absl::InvalidArgumentError(
        absl::StrCat(flag, " names '", name,
                     "', which is not a result (results: ", absl::StrJoin(names, ", "), ")")));
  };

  for (const std::string &spec : args->getAll("output")) {
    auto assignment = splitAssignment(spec, "output");
    if (!assignment.ok())
      return report(assignment.status());
    std::optional<size_t> i = resultIndex(assignment->first);
    if (!i)
      return unknownResult("--output", assignment->first);
    if (absl::Status s = writeNpy(assignment->second, (*outputs)[*i]); !s.ok())
      return report(s);
  }

  for (const std::string &spec : args->getAll("expected")) {
    auto assignment = splitAssignment(spec, "expected");
    if (!assignment.ok())
      return report(assignment.status());
    std::optional<size_t> i = resultIndex(assignment->first);
    if (!i)
      return unknownResult("--expected", assignment->first);
    absl::StatusOr<HostTensor> expected = readNpy(assignment->second);
    if (!expected.ok())
      return report(expected.status());
    absl::StatusOr<Tolerance> tol = toleranceFor(*args, (*outputs)[*i].elementType());
    if (!tol.ok())
      return report(tol.status());
    allPassed &= printComparison("expected", assignment->first, (*outputs)[*i], *expected, *tol);
  }

  if (args->has("check")) {
    absl::StatusOr<std::unique_ptr<Module>> reference = loadModule(path, {"shape-inference"});
    if (!reference.ok())
      return report(reference.status());
    Function *refFunction = (*reference)->lookup((*function)->name());
    absl::StatusOr<std::vector<HostTensor>> refOutputs = interpret(*refFunction, inputs->tensors);
    if (!refOutputs.ok())
      return report(refOutputs.status());
    for (size_t i = 0; i < results.size(); ++i) {
      absl::StatusOr<Tolerance> tol = toleranceFor(*args, (*outputs)[i].elementType());
      if (!tol.ok())
        return report(tol.status());
      allPassed &= printComparison("check", results[i].name, (*outputs)[i], (*refOutputs)[i], *tol);
    }
  }

  if (args->has("bench")) {
    std::vector<double> times;
    for (int i = 0; i < iters; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      absl::StatusOr<std::vector<HostTensor>> again = interpret(**function, inputs->tensors);
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (!again.ok())
        return report(again.status());
    }
    std::sort(times.begin(), times.end());
    std::cout << absl::StrFormat("time: median %.3f ms over %d runs after a warm-up (%s)\n",
                                 times[times.size() / 2] * 1e3, iters, device);
  } else {
    std::cout << absl::StrFormat("time: %.3f ms (%s, one run)\n", firstSeconds * 1e3, device);
  }
  return allPassed ? kExitOk : kExitMismatch;
}

} // namespace
} // namespace xs

int main(int argc, char **argv) { return xs::run(argc, argv); }
