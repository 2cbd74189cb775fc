#include "tools/RunBench.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace xs {
namespace {

double percentile(const std::vector<double> &sorted, double p) {
  size_t index = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

} // namespace

absl::StatusOr<BenchSummary>
benchmarkRuns(const std::function<absl::StatusOr<double>(RunStats *)> &timeRun, int iters,
              double seconds, std::vector<KernelReport> &kernels) {
  std::vector<double> times;
  std::vector<std::vector<double>> kernelTimes(kernels.size());
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (seconds > 0 ? (elapsed() < seconds || times.size() < 3)
                     : static_cast<int>(times.size()) < iters) {
    RunStats stats;
    absl::StatusOr<double> run = timeRun(&stats);
    if (!run.ok())
      return run.status();
    times.push_back(*run);
    // Steps are reported in launch order; match them to the plan's by name.
    size_t next = 0;
    for (const KernelTiming &t : stats.steps)
      for (size_t k = next; k < kernels.size(); ++k)
        if (kernels[k].name == t.kernel) {
          kernelTimes[k].push_back(t.seconds);
          next = k + 1;
          break;
        }
  }
  for (size_t k = 0; k < kernels.size(); ++k)
    if (!kernelTimes[k].empty()) {
      std::sort(kernelTimes[k].begin(), kernelTimes[k].end());
      kernels[k].medianSeconds = percentile(kernelTimes[k], 0.5);
    }
  std::sort(times.begin(), times.end());
  BenchSummary summary;
  summary.runs = static_cast<int>(times.size());
  summary.minSeconds = times.front();
  summary.medianSeconds = percentile(times, 0.5);
  summary.p90Seconds = percentile(times, 0.9);
  summary.maxSeconds = times.back();
  return summary;
}

namespace {

/// A kernel's ops on its bench line: the first few, then how many more (a
/// stitched kernel of a whole block's element-wise ops has dozens).
std::string kernelOpsLine(const std::vector<std::string> &ops) {
  constexpr size_t kShown = 6;
  if (ops.size() <= kShown)
    return absl::StrJoin(ops, ", ");
  return absl::StrCat(absl::StrJoin(ops.begin(), ops.begin() + kShown, ", "), ", and ",
                      ops.size() - kShown, " more (--explain lists them)");
}

} // namespace

std::string formatBench(const BenchSummary &s, const std::string &device, double bytes,
                        const std::vector<KernelReport> &kernels, bool copiesToGpu) {
  std::string out = absl::StrFormat(
      "time: median %.3f ms over %d runs after a warm-up (%s), %.2f GB/s effective ((inputs + "
      "outputs) / time)%s\n"
      "  min %.3f ms, p90 %.3f ms, max %.3f ms; spread (p90 - min) / median %.1f%%\n",
      s.medianSeconds * 1e3, s.runs, device,
      s.medianSeconds > 0 ? bytes / s.medianSeconds / 1e9 : 0,
      copiesToGpu ? "; a run copies inputs and results between host and GPU, the kernels' own "
                    "times follow"
                  : "",
      s.minSeconds * 1e3, s.p90Seconds * 1e3, s.maxSeconds * 1e3, s.spread() * 100);
  for (const KernelReport &k : kernels)
    if (k.medianSeconds)
      out += absl::StrFormat("  %-40s %10.1f us  %s\n", k.name, *k.medianSeconds * 1e6,
                             kernelOpsLine(k.ops));
  return out;
}

} // namespace xs
