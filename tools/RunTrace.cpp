#include "tools/RunTrace.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace xs {
namespace {

std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

/// One complete event ("ph": "X") of `seconds` from `start` (microseconds
/// in the format).
std::string event(const std::string &name, const std::string &category, int thread, double start,
                  double seconds) {
  return absl::StrFormat(
      "{\"name\": %s, \"cat\": %s, \"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"ts\": %.3f, "
      "\"dur\": %.3f}",
      quoted(name), quoted(category), thread, start * 1e6, seconds * 1e6);
}

std::string threadName(int thread, const std::string &name) {
  return absl::StrFormat("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, "
                         "\"args\": {\"name\": %s}}",
                         thread, quoted(name));
}

} // namespace

std::string chromeTrace(const RunReport &report, const std::vector<KernelTiming> &steps) {
  constexpr int kCompile = 1, kRun = 2;
  std::vector<std::string> events = {
      absl::StrFormat(
          "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": "
          "{\"name\": %s}}",
          quoted(absl::StrCat("xstitch-run @", report.function, " on ", report.device))),
      threadName(kCompile, "compile"), threadName(kRun, "run")};
  double at = 0;
  if (report.source == "compiled") {
    for (auto [name, seconds] : {std::pair<const char *, double>{"plan", report.planSeconds},
                                 {"LLVM", report.llvmSeconds},
                                 {"load", report.loadSeconds}}) {
      events.push_back(event(name, "compile", kCompile, at, seconds));
      at += seconds;
    }
  } else {
    events.push_back(event(absl::StrCat("load (", report.source, ")"), "compile", kCompile, at,
                           report.compileSeconds));
    at += report.compileSeconds;
  }
  for (const KernelTiming &step : steps) {
    events.push_back(event(step.kernel, "run", kRun, at, step.seconds));
    at += step.seconds;
  }
  return absl::StrCat("{\"traceEvents\": [\n", absl::StrJoin(events, ",\n"),
                      "\n], \"displayTimeUnit\": \"ms\"}\n");
}

absl::Status writeChromeTrace(const std::string &path, const RunReport &report,
                              const std::vector<KernelTiming> &steps) {
  std::ofstream out(path);
  if (!out)
    return absl::InvalidArgumentError(
        absl::StrCat("--trace ", path, ": cannot write the file (does its folder exist?)"));
  out << chromeTrace(report, steps);
  if (!out)
    return absl::InvalidArgumentError(absl::StrCat("--trace ", path, ": writing failed"));
  return absl::OkStatus();
}

} // namespace xs
