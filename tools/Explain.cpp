#include "tools/Explain.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

/// `e` with the run's value in brackets when the dims determine it.
std::string sized(const DimExpr &e, const DimBindings &dims) {
  absl::StatusOr<int64_t> value = e.evaluate(dims);
  if (!value.ok() || e.isConstant())
    return e.str();
  return strCat(e.str(), " [", *value, "]");
}

std::string humanBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  if (unit == 0)
    return absl::StrFormat("%.0f %s", bytes, units[unit]);
  return absl::StrFormat("%.1f %s", bytes, units[unit]);
}

std::string valueName(const Value *v) { return strCat("%", v->name()); }

/// Ops of a group other than its dominant: recomputed in it (Local).
std::vector<std::string> localOps(const PlanGroup &group) {
  std::vector<std::string> names;
  for (const Operation *op : group.ops)
    if (op != group.dominant)
      names.push_back(valueName(op->result()));
  return names;
}

std::string mappingSummary(const ThreadMapping &m, const TargetDescription &target) {
  std::string out(mappingKindName(m.kind));
  out += strCat(" ", m.rows.str(), " x ", m.cols.str());
  if (!isColumnMajor(m.kind) && m.rowsPerBlock > 1)
    out += strCat(", ", m.rowsPerBlock, " rows per block");
  if (m.colsPerBlock > 0)
    out += strCat(", ", m.colsPerBlock, " columns per block");
  // Column reductions' row groups (the emitter's reduceColumns).
  bool columns = isColumnMajor(m.kind) || m.kind == MappingKind::ColumnCombine;
  if (int64_t groups = columnRowGroups(m.colsPerBlock, target); columns && groups > 1)
    out +=
        strCat(", rows over ", groups, " groups of ", columnGroupLanes(m.colsPerBlock), " lanes");
  if (m.rowLanes == 1)
    out += ", a lane per row";
  else if (m.rowLanes > 1)
    out += strCat(", ", m.rowLanes, " lanes per row");
  out += strCat(", vector ", m.vectorWidth);
  if (m.rowBlocksFirst)
    out += ", blocks down the rows first";
  return out;
}

int phaseOf(const KernelVariant &v, int group) {
  for (size_t p = 0; p < v.phases.size(); ++p)
    for (const PlanStage &s : v.phases[p].stages)
      for (int g : s.groups)
        if (g == group)
          return static_cast<int>(p);
  return 0;
}

std::string dotQuote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n"; // a line break in the rendered label
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

size_t selectedVariant(const KernelPlan &kernel, const DimBindings &dims) {
  for (size_t v = 0; v < kernel.variants.size(); ++v) {
    absl::StatusOr<bool> holds = evaluateAll(kernel.variants[v].predicates, dims);
    if (holds.ok() && *holds)
      return v;
  }
  return kernel.variants.empty() ? 0 : kernel.variants.size() - 1;
}

std::string explainPlan(const ProgramPlan &plan, const DimBindings &dims) {
  std::string out;
  int launches = 0;
  for (const HostStep &step : plan.host.steps)
    launches += step.kind == HostStep::Kind::Launch ? 1 : 0;
  out += strCat("@", plan.host.function, ": ", launches, " kernel", launches == 1 ? "" : "s", ", ",
                plan.host.steps.size() - static_cast<size_t>(launches), " other step(s)\n");
  for (const KernelPlan &kernel : plan.kernels) {
    std::vector<std::string> ops;
    for (const auto &op : kernel.body->ops())
      if (op->kind() != OpKind::Constant)
        ops.push_back(opSummary(*op));
    out += strCat("\nkernel ", kernel.name, " (", ops.size(), " ops): ", absl::StrJoin(ops, ", "),
                  "\n");
    if (!kernel.codeOf.empty())
      out += strCat("  runs the code of ", kernel.codeOf, " (the same plan but for names)\n");
    for (const HostStep &step : plan.host.steps)
      if (step.kind == HostStep::Kind::Launch && step.kernel == kernel.name)
        if (std::vector<std::string> sources = stepSources(plan.host, step); !sources.empty())
          out += strCat("  reads ", absl::StrJoin(sources, ", "), "\n");
    size_t chosen = selectedVariant(kernel, dims);
    for (size_t vi = 0; vi < kernel.variants.size(); ++vi) {
      const KernelVariant &v = kernel.variants[vi];
      std::vector<std::string> predicates;
      for (const DimPredicate &p : v.predicates)
        predicates.push_back(p.str());
      out += strCat("  variant ", vi, predicates.empty() ? " (always)" : " when ",
                    absl::StrJoin(predicates, " and "),
                    dims.empty() || vi != chosen ? "" : "  <- this run", ": grid ",
                    sized(v.grid, dims), " blocks of ",
                    v.groups.empty() ? 1 : v.groups.front().mapping.lanes, " lanes, ",
                    v.phases.size(), " phase", v.phases.size() == 1 ? "" : "s",
                    plan.target.gridBarrier && v.phases.size() > 1
                        ? " (one cooperative kernel with grid barriers where its blocks fit)"
                        : "",
                    v.blocksPerTask == DimExpr(1)
                        ? std::string()
                        : strCat(", ", sized(v.blocksPerTask, dims), " blocks per task"),
                    "\n");
      for (size_t g = 0; g < v.groups.size(); ++g) {
        const PlanGroup &group = v.groups[g];
        out += strCat("    group ", g, " (phase ", phaseOf(v, static_cast<int>(g)), "): dominant ",
                      opSourceSummary(*group.dominant), "; ",
                      mappingSummary(group.mapping, plan.target));
        if (group.blocks != v.grid)
          out += strCat("; its own ", sized(group.blocks, dims), " blocks");
        out += "\n";
        std::vector<std::string> local = localOps(group);
        if (!local.empty())
          out +=
              strCat("      local (recomputed in the group): ", absl::StrJoin(local, ", "), "\n");
      }
      for (const PlanEdge &e : v.edges)
        out += strCat("    edge ", valueName(e.value), ": group ", e.producer, " -> group ",
                      e.consumer, " ", stitchSchemeName(e.scheme),
                      e.scheme == StitchScheme::Regional ? " (block buffer, same phase)"
                                                         : " (global memory, after a grid barrier)",
                      "\n");
      for (const PlanBuffer &b : v.buffers) {
        ElementType type = b.value->type().elementType();
        for (const PlanPartials &p : kernel.partials)
          if (b.partials && p.reduction == b.value)
            type = p.type;
        DimExpr bytes = b.elements * DimExpr(elementByteSize(type));
        absl::StatusOr<int64_t> value = bytes.evaluate(dims);
        out += strCat("    buffer ", valueName(b.value), ": ", bufferLevelName(b.level),
                      b.accumulators ? " accumulators"
                      : b.staging    ? " staging (the transpose's tile)"
                      : b.partials   ? strCat(" partials (", elementTypeName(type), ")")
                      : b.inResult   ? strCat(" in the result ", valueName(b.inResult),
                                              "'s tile, which overwrites it")
                                     : "",
                      ", ", sized(b.elements, dims), " elements",
                      b.level == BufferLevel::Block ? " per block" : "",
                      value.ok() ? strCat(" (", humanBytes(static_cast<double>(*value)), ")") : "",
                      "\n");
      }
      DimExpr estimate = v.estimatedBytes != DimExpr(0) ? v.estimatedBytes : kernel.minimumBytes;
      absl::StatusOr<int64_t> moved = estimate.evaluate(dims);
      absl::StatusOr<int64_t> minimum = kernel.minimumBytes.evaluate(dims);
      if (moved.ok() && minimum.ok() && *minimum > 0)
        out += absl::StrFormat("    bytes moved: %s estimated, %s minimum (%.2fx)\n",
                               humanBytes(static_cast<double>(*moved)),
                               humanBytes(static_cast<double>(*minimum)),
                               static_cast<double>(*moved) / static_cast<double>(*minimum));
      else
        out += strCat("    bytes moved: ", estimate.str(), " estimated, ",
                      kernel.minimumBytes.str(), " minimum\n");
    }
  }
  return out;
}

std::string explainPlanDot(const ProgramPlan &plan, const DimBindings &dims) {
  std::string out = strCat("digraph ", dotQuote(plan.host.function), " {\n",
                           "  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
  // Host buffers are ellipses; a kernel is a cluster of its chosen variant's
  // groups; edges carry the scheme.
  std::vector<bool> scratch(plan.host.buffers.size(), false);
  for (const HostStep &step : plan.host.steps)
    for (const KernelPlan &k : plan.kernels)
      if (step.kind == HostStep::Kind::Launch && k.name == step.kernel)
        for (size_t a = k.body->params().size() + k.body->results().size(); a < step.buffers.size();
             ++a)
          scratch[static_cast<size_t>(step.buffers[a])] = true;
  for (size_t b = 0; b < plan.host.buffers.size(); ++b) {
    const HostBuffer &buffer = plan.host.buffers[b];
    if (scratch[b])
      continue;
    out += strCat("  buf", b, " [shape=ellipse, label=",
                  dotQuote(strCat("%", buffer.name, "\n", buffer.type.str())), "];\n");
  }
  size_t kernelIndex = 0;
  for (size_t s = 0; s < plan.host.steps.size(); ++s) {
    const HostStep &step = plan.host.steps[s];
    if (step.kind == HostStep::Kind::Library) {
      out +=
          strCat("  step", s,
                 " [shape=box3d, label=", dotQuote(std::string(mnemonic(step.libraryOp))), "];\n");
      for (size_t i = 0; i + 1 < step.buffers.size(); ++i)
        out += strCat("  buf", step.buffers[i], " -> step", s, " [color=gray];\n");
      out += strCat("  step", s, " -> buf", step.buffers.back(), " [color=gray];\n");
      continue;
    }
    if (step.kind == HostStep::Kind::Alias) {
      out += strCat("  buf", step.buffers[0], " -> buf", step.buffers[1],
                    " [color=gray, label=\"view\"];\n");
      continue;
    }
    const KernelPlan *kernel = nullptr;
    for (const KernelPlan &k : plan.kernels)
      if (k.name == step.kernel)
        kernel = &k;
    if (!kernel)
      continue;
    size_t k = kernelIndex++;
    const KernelVariant &v = kernel->variants[selectedVariant(*kernel, dims)];
    out += strCat("  subgraph cluster_", k, " {\n    label=",
                  dotQuote(strCat(kernel->name, " (", v.phases.size(), " phase",
                                  v.phases.size() == 1 ? "" : "s", ")")),
                  ";\n    style=rounded;\n");
    for (size_t g = 0; g < v.groups.size(); ++g) {
      const PlanGroup &group = v.groups[g];
      std::string label =
          strCat(opSourceSummary(*group.dominant), "\n", mappingKindName(group.mapping.kind),
                 ", phase ", phaseOf(v, static_cast<int>(g)));
      std::vector<std::string> local = localOps(group);
      if (!local.empty())
        label += strCat("\nlocal: ", absl::StrJoin(local, " "));
      out += strCat("    k", k, "g", g, " [label=", dotQuote(label), "];\n");
    }
    out += "  }\n";
    for (const PlanEdge &e : v.edges)
      out +=
          strCat("  k", k, "g", e.producer, " -> k", k, "g", e.consumer,
                 " [label=", dotQuote(strCat(valueName(e.value), " ", stitchSchemeName(e.scheme))),
                 e.scheme == StitchScheme::Global ? ", style=dashed" : "", "];\n");
    // Kernel arguments: each parameter into the groups that read it, each
    // result out of the group that writes it.
    const Function &body = *kernel->body;
    for (size_t g = 0; g < v.groups.size(); ++g) {
      std::vector<int> seen;
      for (const Operation *op : v.groups[g].ops) {
        for (const Value *operand : op->operands()) {
          if (!operand->isParam())
            continue;
          int buffer = step.buffers[static_cast<size_t>(operand->paramIndex())];
          if (std::find(seen.begin(), seen.end(), buffer) != seen.end())
            continue;
          seen.push_back(buffer);
          out += strCat("  buf", buffer, " -> k", k, "g", g, " [color=gray];\n");
        }
        for (size_t r = 0; r < body.results().size(); ++r) {
          if (body.results()[r].value != op->result())
            continue;
          out += strCat("  k", k, "g", g, " -> buf", step.buffers[body.params().size() + r],
                        " [color=gray];\n");
        }
      }
    }
  }
  out += "}\n";
  return out;
}

} // namespace xs
