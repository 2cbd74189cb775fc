#ifndef XSTITCH_TOOLS_RUNFLAGCHECKS_H
#define XSTITCH_TOOLS_RUNFLAGCHECKS_H

// xstitch-run's flags checked as a whole before anything compiles: every
// value parses (a tolerance that is no number is an error, not ignored),
// flags that cannot go together are an error naming both (--explain prints
// a plan and exits, so --report=json would describe no run), and files the
// run writes have a format it writes.

#include "absl/status/status.h"
#include "tools/common/CommandLine.h"

namespace xs {

absl::Status checkRunFlags(const ParsedArgs &args);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNFLAGCHECKS_H
