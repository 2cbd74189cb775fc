#ifndef XSTITCH_TOOLS_RUNFLAGS_H
#define XSTITCH_TOOLS_RUNFLAGS_H

// xstitch-run's flags (names, values, help) and its usage text;
// tools/RunFlagChecks.h checks their values as a whole.

#include <ostream>
#include <vector>

#include "tools/common/CommandLine.h"

namespace xs {

const std::vector<FlagSpec> &runFlags();

/// The usage lines and every flag's help (--help).
void printRunUsage(std::ostream &os);

} // namespace xs

#endif // XSTITCH_TOOLS_RUNFLAGS_H
