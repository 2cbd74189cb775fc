#include "tools/RunReport.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace xs {
namespace {

std::string number(double v) {
  if (!std::isfinite(v))
    return "null";
  return absl::StrFormat("%.6g", v);
}

template <typename T, typename F> std::string optional(const std::optional<T> &v, F format) {
  return v ? format(*v) : std::string("null");
}

} // namespace

std::string jsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20)
        out += absl::StrFormat("\\u%04x", c);
      else
        out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string formatRunReportJson(const RunReport &r) {
  std::vector<std::string> dims, kernels, results;
  for (const auto &[sym, v] : r.dims)
    dims.push_back(absl::StrCat(jsonQuote(sym), ": ", v));
  for (const KernelReport &k : r.kernels) {
    std::vector<std::string> ops, reads, sources;
    for (const std::string &op : k.ops)
      ops.push_back(jsonQuote(op));
    for (const std::string &source : k.sources)
      sources.push_back(jsonQuote(source));
    for (const std::string &source : k.reads)
      reads.push_back(jsonQuote(source));
    std::vector<std::string> edges;
    for (const EdgeReport &e : k.edges)
      edges.push_back(absl::StrCat("{\"value\": ", jsonQuote(e.value),
                                   ", \"scheme\": ", jsonQuote(e.scheme), "}"));
    auto asNumber = [](double v) { return number(v); };
    kernels.push_back(absl::StrCat(
        "{\"name\": ", jsonQuote(k.name), ", \"kind\": ", jsonQuote(k.kind), ", \"ops\": [",
        absl::StrJoin(ops, ", "), "], \"reads\": [", absl::StrJoin(reads, ", "),
        "], \"sources\": [", absl::StrJoin(sources, ", "),
        "], \"time_us\": ", optional(k.medianSeconds, [](double s) { return number(s * 1e6); }),
        ", \"variant\": ", optional(k.variant, [](int v) { return absl::StrCat(v); }),
        ", \"phases\": ", optional(k.phases, [](int v) { return absl::StrCat(v); }),
        ", \"schemes\": [", absl::StrJoin(edges, ", "),
        "], \"bytes_moved\": ", optional(k.bytesMoved, asNumber),
        ", \"minimum_bytes\": ", optional(k.minimumBytes, asNumber), "}"));
  }
  for (const ResultReport &res : r.results)
    results.push_back(
        absl::StrCat("{\"name\": ", jsonQuote(res.name), ", \"type\": ", jsonQuote(res.type), "}"));
  std::optional<double> bandwidth;
  if (r.medianSeconds && r.bytesMoved && *r.medianSeconds > 0)
    bandwidth = *r.bytesMoved / *r.medianSeconds / 1e9;
  return absl::StrCat(
      "{\"device\": ", jsonQuote(r.device), ", \"function\": ", jsonQuote(r.function),
      ", \"dims\": {", absl::StrJoin(dims, ", "),
      "}, \"compile_ms\": ", number(r.compileSeconds * 1e3),
      ", \"compile_stages_ms\": {\"plan\": ", number(r.planSeconds * 1e3),
      ", \"llvm\": ", number(r.llvmSeconds * 1e3), ", \"load\": ", number(r.loadSeconds * 1e3),
      "}, \"cache_hit\": ", r.cacheHit ? "true" : "false", ", \"source\": \"", r.source, "\"",
      ", \"broadcast_variants\": ", r.broadcastVariants, ", \"broadcast_variant\": ",
      optional(r.broadcastVariant, [](int v) { return absl::StrCat(v); }), ", \"kernels\": [",
      absl::StrJoin(kernels, ", "), "], \"results\": [", absl::StrJoin(results, ", "),
      "], \"run_us\": ", optional(r.medianSeconds, [](double s) { return number(s * 1e6); }),
      ", \"run_min_us\": ", optional(r.minSeconds, [](double s) { return number(s * 1e6); }),
      ", \"run_p90_us\": ", optional(r.p90Seconds, [](double s) { return number(s * 1e6); }),
      ", \"iters\": ", optional(r.iters, [](int i) { return absl::StrCat(i); }),
      ", \"bytes\": ", optional(r.bytesMoved, [](double b) { return number(b); }),
      ", \"bandwidth_gbps\": ", optional(bandwidth, [](double b) { return number(b); }),
      ", \"check\": ", optional(r.check, [](const std::string &c) { return jsonQuote(c); }), "}");
}

} // namespace xs
