// xstitch-bench-ops: each large element-wise, broadcast and reduction op
// alone, compiled for the CPU, as a fraction of the copy-bandwidth floor
// timed in turns with it. --data-checks instead times each op that
// compiled code checks (indexed reads, integer division: HostPlan::checks)
// with its checks and without, in turns. Usage:
//   xstitch-bench-ops [--threads N] [--iters N] [--rows R] [--filter TEXT] [--data-checks]
// The table and the command that made it are recorded in docs/performance.md.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "bench/BenchSupport.h"
#include "driver/Compiler.h"
#include "ir/Parser.h"
#include "runtime/Executable.h"
#include "runtime/Tensor.h"
#include "tools/LibraryRun.h"
#include "tools/common/CommandLine.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"

namespace xs::bench {
namespace {

struct OpCase {
  const char *name;
  const char *text; // a function over R rows; R is bound by --rows
  /// Parameters whose values need a range of their own (indices within
  /// their dim, divisors without 0).
  std::vector<std::pair<std::string, RandomRange>> ranges = {};
};

// 1024 columns: rows x 1024 f32 is 4 KiB per row; the default R = 16384 makes
// every tensor 64 MiB, far larger than any cache.
const OpCase kCases[] = {
    {"add", "func @f(%a: f32[R, 1024], %b: f32[R, 1024]) -> (y) {\n"
            "  %y = add %a, %b\n  return %y\n}\n"},
    {"mul", "func @f(%a: f32[R, 1024], %b: f32[R, 1024]) -> (y) {\n"
            "  %y = mul %a, %b\n  return %y\n}\n"},
    {"neg", "func @f(%a: f32[R, 1024]) -> (y) {\n  %y = neg %a\n  return %y\n}\n"},
    {"exp", "func @f(%a: f32[R, 1024]) -> (y) {\n  %y = exp %a\n  return %y\n}\n"},
    {"tanh", "func @f(%a: f32[R, 1024]) -> (y) {\n  %y = tanh %a\n  return %y\n}\n"},
    {"erf", "func @f(%a: f32[R, 1024]) -> (y) {\n  %y = erf %a\n  return %y\n}\n"},
    {"cast f32->f16", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                      "  %y = cast %a {to = f16}\n  return %y\n}\n"},
    // %rows only carries R (one byte per row, counted in the bytes moved).
    {"broadcast row", "func @f(%b: f32[1024], %rows: i8[R]) -> (y) {\n"
                      "  %y = broadcast %b {dims = [1]} : f32[R, 1024]\n  return %y\n}\n"},
    {"broadcast col", "func @f(%b: f32[R]) -> (y) {\n"
                      "  %y = broadcast %b {dims = [0]} : f32[R, 1024]\n  return %y\n}\n"},
    {"reduce_sum rows", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                        "  %y = reduce_sum %a {dims = [1]}\n  return %y\n}\n"},
    {"reduce_max rows", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                        "  %y = reduce_max %a {dims = [1]}\n  return %y\n}\n"},
    {"reduce_sum cols", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                        "  %y = reduce_sum %a {dims = [0]}\n  return %y\n}\n"},
    {"transpose", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                  "  %y = transpose %a {perm = [1, 0]}\n  return %y\n}\n"},
    // Scans: along each row (lines walked several at a time, a register
    // each), down the columns (a chunk of columns' states advanced
    // together), and integer position ids from a 0/1 mask.
    {"cumsum rows", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                    "  %y = cumsum %a {dim = 1}\n  return %y\n}\n"},
    {"cumsum cols", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                    "  %y = cumsum %a {dim = 0}\n  return %y\n}\n"},
    {"cumsum rows i64",
     "func @f(%m: i64[R, 1024]) -> (y) {\n"
     "  %y = cumsum %m {dim = 1}\n  return %y\n}\n",
     {{"m", {0, 2}}}},
    // top_k along each row (sampling's top-k; the lines are read once and
    // only chunks holding a better element than the k-th are inserted).
    {"top_k rows k 8", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                       "  %y = top_k %a {dim = 1, k = 8}\n  return %y\n}\n"},
    {"top_k rows k 50", "func @f(%a: f32[R, 1024]) -> (y) {\n"
                        "  %y = top_k %a {dim = 1, k = 50}\n  return %y\n}\n"},
    // Ops with data checks: rows of a table picked by index (an embedding
    // lookup), elements of each row picked by index, integer division.
    {"gather rows",
     "func @f(%t: f32[R, 1024], %i: i32[R]) -> (y) {\n"
     "  %y = gather %t, %i {dim = 0}\n  return %y\n}\n",
     {{"i", {0, 16384}}}},
    {"take_along_axis",
     "func @f(%x: f32[R, 1024], %i: i32[R, 1024]) -> (y) {\n"
     "  %y = take_along_axis %x, %i {dim = 1}\n  return %y\n}\n",
     {{"i", {-1024, 1024}}}},
    {"div i32",
     "func @f(%a: i32[R, 1024], %b: i32[R, 1024]) -> (y) {\n"
     "  %y = div %a, %b\n  return %y\n}\n",
     {{"a", {-1000, 1000}}, {"b", {1, 50}}}},
};

const std::vector<FlagSpec> kFlags = {
    {"threads", true, false, "N", "worker threads (default: all cores)"},
    {"iters", true, false, "N", "timed runs per case (default 20)"},
    {"rows", true, false, "R", "rows of every tensor (default 16384, 1024 columns)"},
    {"filter", true, false, "TEXT", "only the ops whose name contains TEXT (e.g. cumsum)"},
    {"data-checks", false, false, "",
     "instead: each op with data checks compiled with them and without, timed in turns"},
    {"help", false, false, "", "show this help"},
};

/// Random inputs for `f` at R = `rows` (OpCase::ranges where given).
std::vector<Tensor> makeInputs(const Function &f, const OpCase &c, int64_t rows,
                               std::mt19937_64 &rng) {
  std::vector<Tensor> inputs;
  for (const auto &p : f.params()) {
    std::vector<int64_t> shape;
    for (const DimExpr &d : p->type().shape())
      shape.push_back(*d.evaluate(DimBindings{{"R", rows}}));
    ElementType t = p->type().elementType();
    RandomRange range = defaultRandomRange(t);
    for (const auto &[name, given] : c.ranges)
      if (name == p->name())
        range = given;
    // The row indices' range is --rows.
    if (p->name() == "i" && range.hi > 1024)
      range.hi = static_cast<double>(rows);
    inputs.push_back(toTensor(randomTensor(t, shape, range, rng)));
  }
  return inputs;
}

/// --data-checks: each op whose compiled code checks data, with the checks
/// and without, run in turns in this process.
int compareDataChecks(int threads, int iters, int64_t rows, const std::string &filter) {
  std::printf("ops with data checks, rows %lld, %s threads, median of %d runs each, in turns\n\n",
              static_cast<long long>(rows), threads ? std::to_string(threads).c_str() : "all",
              iters);
  std::printf(
      "| op | checks | with (ms) | without (ms) | with / without |\n|---|---:|---:|---:|---:|\n");
  std::mt19937_64 rng(1);
  for (const OpCase &c : kCases) {
    if (!absl::StrContains(c.name, filter))
      continue;
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(c.text, c.name);
    if (!module.ok() || !runPipeline(**module, defaultPipeline(), PipelineOptions{}).ok())
      return 3;
    const Function &f = *(*module)->functions()[0];
    std::shared_ptr<Executable> compiled[2];
    for (int checks = 0; checks < 2; ++checks) {
      CompileOptions options;
      options.threads = threads;
      options.fusion = false;
      options.dataChecks = checks == 1;
      options.useCache = false;
      absl::StatusOr<std::shared_ptr<Executable>> exe = compileFunction(f, options);
      if (!exe.ok()) {
        std::fprintf(stderr, "%s: %s\n", c.name, std::string(exe.status().message()).c_str());
        return 3;
      }
      compiled[checks] = *exe;
    }
    size_t checks = compiled[1]->plan().checks.size();
    if (checks == 0)
      continue;
    std::vector<Tensor> inputs = makeInputs(f, c, rows, rng);
    RunRequest request;
    for (const Tensor &t : inputs)
      request.inputs.push_back(t.view());
    std::vector<std::function<double()>> runs;
    for (int k : {1, 0})
      runs.push_back([&, k] {
        absl::StatusOr<RunResult> result = compiled[k]->execute(request);
        if (!result.ok()) {
          std::fprintf(stderr, "%s: %s\n", c.name, std::string(result.status().message()).c_str());
          std::exit(3);
        }
        return 0.0;
      });
    TurnMedians medians = medianSecondsInTurns(runs, iters);
    std::printf("| %s | %zu | %.3f | %.3f | %.3f |\n", c.name, checks, medians.seconds[0] * 1e3,
                medians.seconds[1] * 1e3, medians.seconds[0] / medians.seconds[1]);
  }
  return 0;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::fprintf(stderr, "xstitch-bench-ops: error: %s\n",
                 std::string(args.status().message()).c_str());
    return 2;
  }
  if (args->has("help")) {
    std::printf("usage: xstitch-bench-ops [options]\n%s", formatFlagHelp(kFlags).c_str());
    return 0;
  }
  int threads = 0, iters = 20;
  int64_t rows = 16384;
  if ((args->has("threads") && !absl::SimpleAtoi(args->get("threads"), &threads)) ||
      (args->has("iters") && !absl::SimpleAtoi(args->get("iters"), &iters)) ||
      (args->has("rows") && !absl::SimpleAtoi(args->get("rows"), &rows)) || iters < 1 || rows < 1 ||
      threads < 0) {
    std::fprintf(
        stderr, "xstitch-bench-ops: error: --threads, --iters and --rows take positive integers\n");
    return 2;
  }

  std::string filter = args->has("filter") ? args->get("filter") : "";
  if (!std::any_of(std::begin(kCases), std::end(kCases),
                   [&](const OpCase &c) { return absl::StrContains(c.name, filter); })) {
    std::fprintf(stderr, "xstitch-bench-ops: error: --filter=%s matches no op; the ops are:",
                 filter.c_str());
    for (const OpCase &c : kCases)
      std::fprintf(stderr, " '%s'", c.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  if (args->has("data-checks"))
    return compareDataChecks(threads, iters, rows, filter);

  // The floor is timed in turns with each op: on a machine whose bandwidth
  // drifts over seconds (a VM), a floor measured once misjudges later ops.
  CopyFloor copy(size_t(512) << 20, threads);
  std::printf("copy bandwidth floor: a 512 MiB parallel copy (read + write) timed in turns with "
              "each op\n");
  std::printf("rows %lld x 1024 columns, f32, %s threads, median of %d runs each\n\n",
              static_cast<long long>(rows), threads ? std::to_string(threads).c_str() : "all",
              iters);
  std::printf("| op | bytes moved | time (ms) | GB/s | floor (GB/s) | fraction of floor | kernels "
              "|\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");

  CompileOptions options;
  options.fusion = false;
  options.threads = threads;
  std::mt19937_64 rng(1);
  for (const OpCase &c : kCases) {
    if (!absl::StrContains(c.name, filter))
      continue;
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(c.text, c.name);
    if (!module.ok()) {
      std::fprintf(stderr, "%s\n", std::string(module.status().message()).c_str());
      return 3;
    }
    if (absl::Status s = runPipeline(**module, defaultPipeline(), PipelineOptions{}); !s.ok()) {
      std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
      return 3;
    }
    const Function &f = *(*module)->functions()[0];
    absl::StatusOr<std::unique_ptr<LibraryExecutable>> exe =
        LibraryExecutable::compileText(c.text, c.name, f.name(), options);
    if (!exe.ok()) {
      std::fprintf(stderr, "%s: %s\n", c.name, std::string(exe.status().message()).c_str());
      return 3;
    }
    DimBindings dims{{"R", rows}};
    std::vector<Tensor> inputs = makeInputs(f, c, rows, rng);
    std::vector<TensorView> views;
    double bytes = 0;
    for (const Tensor &t : inputs) {
      views.push_back(t.view());
      bytes += static_cast<double>(t.view().byteSize());
    }
    if (absl::StatusOr<double> first = (*exe)->timeViews(views, nullptr); !first.ok()) {
      std::fprintf(stderr, "%s: %s\n", c.name, std::string(first.status().message()).c_str());
      return 3;
    }
    for (const FunctionResult &r : f.results())
      bytes += static_cast<double>(*r.value->type().numElements().evaluate(dims) *
                                   elementByteSize(r.value->type().elementType()));
    TurnMedians medians = medianSecondsInTurns({[&] {
                                                  (void)(*exe)->timeViews(views, nullptr);
                                                  return 0.0;
                                                },
                                                [&] {
                                                  copy.copy();
                                                  return 0.0;
                                                }},
                                               iters);
    double seconds = medians.seconds[0];
    double bandwidth = bytes / seconds, floor = copy.bytesMoved() / medians.seconds[1];
    std::printf("| %s | %.0f MiB | %.3f | %.1f | %.1f | %.2f | %d |\n", c.name, bytes / (1 << 20),
                seconds * 1e3, bandwidth / 1e9, floor / 1e9, bandwidth / floor,
                (*exe)->kernelCount());
    std::fflush(stdout);
  }
  return 0;
}

} // namespace
} // namespace xs::bench

int main(int argc, char **argv) { return xs::bench::run(argc, argv); }
