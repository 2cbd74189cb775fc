#ifndef XSTITCH_TOOLS_RUNBENCH_H
#define XSTITCH_TOOLS_RUNBENCH_H

// xstitch-run --bench: warm runs timed one by one, summarized as their
// minimum, median, 90th percentile and spread, for a count of runs
// (--iters) or a duration (--bench-seconds), with each kernel's median.

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/Executable.h"
#include "tools/RunReport.h"

namespace xs {

struct BenchSummary {
  int runs = 0;
  double minSeconds = 0, medianSeconds = 0, p90Seconds = 0, maxSeconds = 0;
  /// (p90 - min) / median: how far the slow runs are from the fast ones.
  double spread() const {
    return medianSeconds > 0 ? (p90Seconds - minSeconds) / medianSeconds : 0;
  }
};

/// Calls `timeRun` (one warm run, its seconds and the steps' timings)
/// `iters` times, or, when `seconds` > 0, until that much time has passed
/// (3 runs at least); fills each kernel's median (matched by name, in
/// launch order).
absl::StatusOr<BenchSummary>
benchmarkRuns(const std::function<absl::StatusOr<double>(RunStats *)> &timeRun, int iters,
              double seconds, std::vector<KernelReport> &kernels);

/// The lines --bench prints: the times, the effective bandwidth of `bytes`
/// moved, and each kernel's median.
std::string formatBench(const BenchSummary &summary, const std::string &device, double bytes,
                        const std::vector<KernelReport> &kernels, bool copiesToGpu);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNBENCH_H
