// The text form of KernelPlans, used by golden tests and --explain-style
// dumps. Deterministic: everything prints in plan order.

#include "transforms/KernelPlan.h"

#include <cassert>
#include <cctype>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "ir/Printer.h"

namespace xs {

std::string_view bufferLevelName(BufferLevel level) {
  switch (level) {
  case BufferLevel::Register:
    return "register";
  case BufferLevel::Block:
    return "block";
  case BufferLevel::Global:
    return "global";
  }
  assert(false && "unknown buffer level");
  return "?";
}

std::string_view mappingKindName(MappingKind kind) {
  switch (kind) {
  case MappingKind::Elementwise:
    return "elementwise";
  case MappingKind::RowReduce:
    return "row-reduce";
  case MappingKind::ColumnReduce:
    return "column-reduce";
  case MappingKind::BatchColumnReduce:
    return "batch-column-reduce";
  case MappingKind::Generic:
    return "generic";
  case MappingKind::ColumnPartial:
    return "column-partial";
  case MappingKind::ColumnCombine:
    return "column-combine";
  case MappingKind::RowPartial:
    return "row-partial";
  case MappingKind::RowCombine:
    return "row-combine";
  case MappingKind::Scan:
    return "scan";
  }
  assert(false && "unknown mapping kind");
  return "?";
}

int64_t blockLanes(const KernelVariant &variant) {
  int64_t lanes = 1;
  for (const PlanGroup &group : variant.groups)
    lanes = std::max(lanes, group.mapping.lanes);
  return lanes;
}

std::optional<size_t> transposedBlockStart(const Operation &op) {
  if (op.kind() != OpKind::Transpose)
    return std::nullopt;
  const std::vector<int64_t> &perm = op.attr("perm")->getIntList();
  int64_t rank = static_cast<int64_t>(perm.size());
  if (rank < 2)
    return std::nullopt;
  int64_t k = perm[static_cast<size_t>(rank - 1)];
  if (k > rank - 2)
    return std::nullopt;
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (perm[static_cast<size_t>(d)] != (d < k ? d : d + 1))
      return std::nullopt;
  return static_cast<size_t>(k);
}

ElementType streamedElementType(const Operation &dominant) {
  bool reads = dominant.info().category == OpCategory::Reduce && dominant.numOperands() > 0;
  const Value *start = reads ? dominant.operand(0) : dominant.result();
  ElementType own = start->type().elementType();
  auto isNarrowFloat = [](ElementType t) {
    return t == ElementType::F16 || t == ElementType::BF16;
  };
  if (isNarrowFloat(own) || !isFloat(own))
    return own;
  // A few ops back is where AMP's casts are; the walk stays short in any graph.
  constexpr size_t kMaxVisited = 32;
  std::vector<const Value *> pending{start};
  absl::flat_hash_set<const Value *> visited{start};
  while (!pending.empty() && visited.size() < kMaxVisited) {
    const Value *value = pending.back();
    pending.pop_back();
    if (isNarrowFloat(value->type().elementType()))
      return value->type().elementType();
    const Operation *op = value->definingOp();
    if (!op || (op->info().category != OpCategory::LightElementwise &&
                op->info().category != OpCategory::ExpensiveElementwise))
      continue;
    for (size_t i = 0; i < op->numOperands(); ++i) {
      const Value *operand = op->operand(i);
      if (operand->type().shape() == value->type().shape() && visited.insert(operand).second)
        pending.push_back(operand);
    }
  }
  return own;
}

ElementType columnAccumulationType(const Operation &reduction) {
  ElementType type = reduction.operand(0)->type().elementType();
  return reduction.kind() == OpKind::ReduceSum && isFloat(type) ? ElementType::F64 : type;
}

bool isColumnMajor(MappingKind kind) {
  return kind == MappingKind::ColumnReduce || kind == MappingKind::BatchColumnReduce ||
         kind == MappingKind::ColumnCombine;
}

bool isPartial(MappingKind kind) {
  return kind == MappingKind::ColumnPartial || kind == MappingKind::RowPartial;
}

bool usesPartials(MappingKind kind) {
  return isPartial(kind) || kind == MappingKind::ColumnCombine || kind == MappingKind::RowCombine;
}

std::string_view stitchSchemeName(StitchScheme scheme) {
  switch (scheme) {
  case StitchScheme::Regional:
    return "regional";
  case StitchScheme::Global:
    return "global";
  }
  assert(false && "unknown stitch scheme");
  return "?";
}

namespace {

std::string valueRef(const Value *v) { return strCat("%", v->name()); }

std::string typedValue(const Value *v) { return strCat("%", v->name(), ": ", v->type().str()); }

std::string mappingText(const ThreadMapping &m) {
  std::string out(mappingKindName(m.kind));
  if (m.kind == MappingKind::BatchColumnReduce)
    out += strCat(" batch ", m.batch.str());
  out += strCat(" rows ", m.rows.str(), " cols ", m.cols.str());
  if (!isColumnMajor(m.kind))
    out += strCat(" rows/block ", m.rowsPerBlock);
  if (m.colsPerBlock > 0)
    out += strCat(" cols/block ", m.colsPerBlock);
  out += strCat(" lanes ", m.lanes);
  if (m.rowLanes > 0)
    out += strCat(" lanes/row ", m.rowLanes);
  out += strCat(" vector ", m.vectorWidth);
  if (m.rowBlocksFirst)
    out += " row-blocks-first";
  return out;
}

void printVariant(std::string &out, const KernelVariant &v, size_t index) {
  std::vector<std::string> predicates;
  for (const DimPredicate &p : v.predicates)
    predicates.push_back(p.str());
  out += strCat("  variant ", index, " when ",
                predicates.empty() ? std::string("(none)") : absl::StrJoin(predicates, " and "),
                " grid ", v.grid.str(), ":\n");
  for (size_t g = 0; g < v.groups.size(); ++g) {
    const PlanGroup &group = v.groups[g];
    out += strCat("    group ", g, " dominant ", valueRef(group.dominant->result()));
    if (group.ops.size() > 1) {
      std::vector<std::string> ops;
      for (const Operation *op : group.ops)
        ops.push_back(valueRef(op->result()));
      out += strCat(" ops [", absl::StrJoin(ops, ", "), "]");
    }
    out += strCat(": ", mappingText(group.mapping));
    if (!(group.blocks == v.grid))
      out += strCat(" blocks ", group.blocks.str());
    out += "\n";
  }
  for (size_t p = 0; p < v.phases.size(); ++p) {
    std::vector<std::string> stages;
    for (size_t s = 0; s < v.phases[p].stages.size(); ++s)
      stages.push_back(strCat("stage ", s, ": groups [",
                              absl::StrJoin(v.phases[p].stages[s].groups, ", "), "]"));
    out += strCat("    phase ", p, ": ", absl::StrJoin(stages, "; "), "\n");
  }
  std::vector<std::string> buffers;
  for (const PlanBuffer &b : v.buffers)
    buffers.push_back(strCat(valueRef(b.value), " ", bufferLevelName(b.level),
                             b.accumulators ? " accumulators "
                             : b.staging    ? " staging "
                             : b.partials   ? " partials "
                             : b.inResult   ? strCat(" in ", valueRef(b.inResult), " ")
                                            : " ",
                             b.elements.str()));
  out += strCat("    buffers: ",
                buffers.empty() ? std::string("(none)") : absl::StrJoin(buffers, ", "), "\n");
  if (!v.edges.empty()) {
    std::vector<std::string> edges;
    for (const PlanEdge &e : v.edges)
      edges.push_back(strCat(valueRef(e.value), " ", e.producer, "->", e.consumer, " ",
                             stitchSchemeName(e.scheme)));
    out += strCat("    edges: ", absl::StrJoin(edges, ", "), "\n");
  }
  if (v.estimatedBytes != DimExpr(0))
    out += strCat("    estimated bytes ", v.estimatedBytes.str(), "\n");
  if (v.blocksPerTask != DimExpr(1))
    out += strCat("    vertical packing: ", v.blocksPerTask.str(), " blocks per task\n");
}

} // namespace

std::string printKernelPlan(const KernelPlan &plan) {
  assert(plan.body && "a kernel plan has a body");
  const Function &body = *plan.body;
  std::vector<std::string> params, results;
  for (const auto &p : body.params())
    params.push_back(typedValue(p.get()));
  for (const FunctionResult &r : body.results())
    results.push_back(typedValue(r.value));
  std::string out =
      strCat("kernel @", plan.name, "(", absl::StrJoin(params, ", "), ") -> (",
             absl::StrJoin(results, ", "), ") bytes ", plan.minimumBytes.str(), " {\n");
  for (const auto &op : body.ops())
    out += strCat("  ", printOp(*op), "\n");
  if (!plan.scratch.empty()) {
    std::vector<std::string> scratch;
    for (const Value *v : plan.scratch)
      scratch.push_back(valueRef(v));
    out += strCat("  scratch [", absl::StrJoin(scratch, ", "), "]\n");
  }
  for (const PlanPartials &p : plan.partials)
    out += strCat("  partials ", valueRef(p.reduction), ": ", elementTypeName(p.type), "[",
                  p.blocks.str(), ", ", p.cols.str(), "]\n");
  if (!plan.codeOf.empty())
    out += strCat("  code of @", plan.codeOf, "\n");
  for (size_t i = 0; i < plan.variants.size(); ++i)
    printVariant(out, plan.variants[i], i);
  out += "}\n";
  return out;
}

std::string kernelCodeKey(const KernelPlan &plan) {
  std::string text = printKernelPlan(plan);
  // The first line names the kernel; codeOf is what the key decides.
  std::string::size_type open = text.find('(');
  std::string key = "kernel" + text.substr(open);
  if (!plan.codeOf.empty()) {
    std::string line = strCat("  code of @", plan.codeOf, "\n");
    key.erase(key.find(line), line.size());
  }
  // Value names (`%` then name characters, as the lexer reads them) by
  // order of first appearance; a `%` followed by a space is an operator.
  auto isNameChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  };
  absl::flat_hash_map<std::string, size_t> number;
  std::string out;
  for (size_t i = 0; i < key.size();) {
    if (key[i] != '%') {
      out += key[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < key.size() && isNameChar(key[end]))
      ++end;
    std::string name = key.substr(i + 1, end - i - 1);
    out += '%';
    if (!name.empty())
      out += std::to_string(number.try_emplace(name, number.size()).first->second);
    i = end;
  }
  return out;
}

} // namespace xs
