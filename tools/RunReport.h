#ifndef XSTITCH_TOOLS_RUNREPORT_H
#define XSTITCH_TOOLS_RUNREPORT_H

// xstitch-run's machine-readable report (--report=json): one JSON object
// describing the device, compilation, kernels, timings and the check.

#include <optional>
#include <string>
#include <vector>

namespace xs {

/// One edge between groups of a stitched kernel's launched variant.
struct EdgeReport {
  std::string value;  // the IR value crossing it
  std::string scheme; // "regional" or "global"
};

struct KernelReport {
  std::string name;
  std::string kind; // "launch" or "library"
  std::vector<std::string> ops;
  /// The inputs and constants it reads (stepSources: weights name their
  /// initializer).
  std::vector<std::string> reads;
  /// Launches of text IR: the kernel's ops where the source wrote them
  /// (opSourceSummary: "%y = add at model.xs:4:3").
  std::vector<std::string> sources;
  std::optional<double> medianSeconds; // when benchmarking
  /// Launches: the variant the run's dims pick, its phases and edges, and
  /// bytes moved (the cost model's estimate) against the minimum.
  std::optional<int> variant;
  std::optional<int> phases;
  std::vector<EdgeReport> edges;
  std::optional<double> bytesMoved;
  std::optional<double> minimumBytes;
};

struct ResultReport {
  std::string name;
  std::string type; // f32[7, 768]
};

struct RunReport {
  std::string device;
  std::string function;
  std::vector<std::pair<std::string, int64_t>> dims;
  double compileSeconds = 0;
  bool cacheHit = false;
  std::string source = "compiled"; // executableSourceName: compiled, memory, disk, bundle
  // Stages of a compile that missed the cache (CompileInfo).
  double planSeconds = 0, llvmSeconds = 0, loadSeconds = 0;
  /// Broadcast speculation (transforms/SpeculateBroadcasts.h): how many
  /// variants were compiled, and the one the run's dims take (whose plan
  /// `kernels` describe); nullopt without speculation.
  int broadcastVariants = 1;
  std::optional<int> broadcastVariant;
  std::vector<KernelReport> kernels;
  std::vector<ResultReport> results;
  std::optional<double> medianSeconds; // --bench
  std::optional<double> minSeconds, p90Seconds;
  std::optional<int> iters;
  std::optional<double> bytesMoved; // inputs + outputs
  std::optional<std::string> check; // "pass" / "fail"; null without --check
};

/// The report as one line of JSON.
std::string formatRunReportJson(const RunReport &report);

/// `s` as a JSON string literal, quotes included.
std::string jsonQuote(const std::string &s);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNREPORT_H
