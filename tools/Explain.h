#ifndef XSTITCH_TOOLS_EXPLAIN_H
#define XSTITCH_TOOLS_EXPLAIN_H

// `xstitch-run --explain`: what the stitcher did, per kernel: its ops, the
// dominants and groups, the scheme of every edge between groups, buffer
// levels and sizes, the thread mapping of every variant (and which one the
// run's dims select), and bytes moved against the minimum. `--explain=dot`
// writes the same as a Graphviz graph: kernels as clusters, groups as
// boxes, edges labelled by scheme.

#include <string>

#include "ir/DimExpr.h"
#include "transforms/PlanProgram.h"

namespace xs {

/// The text report. `dims` binds the run's symbols (may be empty: sizes stay
/// symbolic).
std::string explainPlan(const ProgramPlan &plan, const DimBindings &dims);

/// The Graphviz graph (`dot -Tsvg`).
std::string explainPlanDot(const ProgramPlan &plan, const DimBindings &dims);

/// The variant of `kernel` the dims select (the last one when they do not
/// decide).
size_t selectedVariant(const KernelPlan &kernel, const DimBindings &dims);

} // namespace xs

#endif // XSTITCH_TOOLS_EXPLAIN_H
