#ifndef XSTITCH_TOOLS_RUNTRACE_H
#define XSTITCH_TOOLS_RUNTRACE_H

// xstitch-run --trace=FILE: the compile's stages and a timed run's steps as
// a Chrome trace (the JSON "trace event" format that chrome://tracing and
// Perfetto open), laid end to end on one timeline: the compile on one track,
// the run's kernel launches and library calls on another.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/Executable.h"
#include "tools/RunReport.h"

namespace xs {

/// The trace of `report`'s compile stages (plan, LLVM, load; or the load
/// of a cached or bundled executable) and `steps` (one run, in order), as
/// trace-event JSON.
std::string chromeTrace(const RunReport &report, const std::vector<KernelTiming> &steps);

/// Writes chromeTrace() to `path`; an unwritable path is an error naming it.
absl::Status writeChromeTrace(const std::string &path, const RunReport &report,
                              const std::vector<KernelTiming> &steps);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNTRACE_H
