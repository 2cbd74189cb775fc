// The readable dump of a HostPlan (golden tests, --explain-style reports).

#include "ir/HostPlan.h"

#include <algorithm>
#include <cassert>

#include "absl/strings/str_join.h"
#include "ir/Attribute.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

/// Constants print at most this many values, so dumps stay readable.
constexpr int64_t kMaxPrintedValues = 8;

std::string constantValues(const std::shared_ptr<const DenseElements> &t) {
  if (!t)
    return "<missing>";
  std::vector<std::string> values;
  int64_t n = std::min(t->size(), kMaxPrintedValues);
  for (int64_t i = 0; i < n; ++i)
    values.push_back(isFloat(t->elementType()) ? formatFloat(t->getDouble(i))
                                               : strCat(t->getInt(i)));
  if (t->size() > n)
    values.push_back("...");
  return strCat("[", absl::StrJoin(values, ", "), "]");
}

std::string bufferText(const HostBuffer &b) {
  std::string out = strCat("%", b.name, ": ", b.type.str(), " ");
  switch (b.kind) {
  case HostBuffer::Kind::Input:
    return out + strCat("input ", b.paramIndex);
  case HostBuffer::Kind::Output:
    return out + strCat("output ", b.resultIndex);
  case HostBuffer::Kind::Temporary:
    return out + strCat("temporary slot ", b.slot);
  case HostBuffer::Kind::Constant:
    return out + strCat("constant ", constantValues(b.constant));
  case HostBuffer::Kind::Alias:
    return out + strCat("alias of #", b.aliasOf);
  }
  assert(false && "unknown buffer kind");
  return out;
}

std::string bufferList(const std::vector<int> &buffers) {
  std::vector<std::string> refs;
  for (int b : buffers)
    refs.push_back(strCat("#", b));
  return absl::StrJoin(refs, ", ");
}

std::string stepText(const HostStep &step) {
  std::string ops = strCat(" ops [", absl::StrJoin(step.ops, ", "), "]");
  switch (step.kind) {
  case HostStep::Kind::Launch: {
    std::string out = strCat("launch ", step.kernel, "(", bufferList(step.buffers), ")", ops,
                             " bytes ", step.minimumBytes.str(), "\n");
    for (const HostLaunchVariant &v : step.variants) {
      std::vector<std::string> predicates;
      for (const DimPredicate &p : v.predicates)
        predicates.push_back(p.str());
      out += strCat(
          "      ", v.symbol, " when ",
          predicates.empty() ? std::string("(none)") : absl::StrJoin(predicates, " and "), " grid ",
          v.grid.str(), v.phases > 1 ? strCat(" phases ", v.phases) : std::string(),
          v.cooperative ? " cooperative" : "", v.ownBlockGroups ? " own-block groups" : "",
          v.blocksPerTask == DimExpr(1) ? std::string()
                                        : strCat(" blocks/task ", v.blocksPerTask.str()),
          v.totalBlockBufferBytes() == DimExpr(0)
              ? std::string()
              : strCat(" block-buffer bytes ",
                       absl::StrJoin(v.phaseBlockBufferBytes, ", ",
                                     [](std::string *out, const DimExpr &bytes) {
                                       out->append(bytes.str());
                                     })),
          "\n");
    }
    return out;
  }
  case HostStep::Kind::Library:
    return strCat("library ", mnemonic(step.libraryOp), "(", bufferList(step.buffers), ")", ops,
                  " bytes ", step.minimumBytes.str(), "\n");
  case HostStep::Kind::Alias:
    return strCat("alias ", bufferList(step.buffers), ops, "\n");
  }
  assert(false && "unknown step kind");
  return "";
}

} // namespace

std::string phaseSymbol(const std::string &symbol, int phase) {
  return phase == 0 ? symbol : strCat(symbol, ".p", phase);
}

std::string printHostPlan(const HostPlan &plan) {
  std::string out = strCat("host @", plan.function, " {\n");
  out += strCat("  symbols: [", absl::StrJoin(plan.symbols, ", "), "]\n");
  if (plan.hostSymbols) {
    std::vector<std::string> params;
    for (size_t p : plan.hostSymbols->dataParams())
      params.push_back(strCat("%", plan.hostSymbols->computation->param(p)->name()));
    out += strCat("  host symbols: [", absl::StrJoin(plan.hostSymbols->symbols, ", "),
                  "] from the dims", params.empty() ? "" : " and the values of ",
                  absl::StrJoin(params, ", "), "\n");
  }
  std::vector<std::string> facts;
  for (const Constraint &c : plan.constraints.facts())
    facts.push_back(c.str());
  if (!facts.empty())
    out += strCat("  constraints: ", absl::StrJoin(facts, ", "), "\n");
  out += "  buffers:\n";
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    out += strCat("    #", i, " ", bufferText(plan.buffers[i]), "\n");
  out += strCat("  slots: ", plan.numSlots, "\n");
  out += "  steps:\n";
  for (size_t i = 0; i < plan.steps.size(); ++i)
    out += strCat("    ", i, ": ", stepText(plan.steps[i]));
  out += strCat("  outputs: [", bufferList(plan.outputs), "]\n");
  if (!plan.checks.empty()) {
    out += "  checks:\n";
    for (size_t i = 0; i < plan.checks.size(); ++i) {
      const HostCheck &c = plan.checks[i];
      out += strCat(
          "    ", i, ": ", c.op, " in ", c.kernel, ": ", hostCheckText(c.kind),
          c.kind == HostCheck::Kind::IndexOutOfRange ? strCat(" for a dim of size ", c.bound.str())
          : c.onHost() ? strCat(" (dim ", c.axis, ": ", c.bound.str(), ")")
                       : "",
          c.sharedBy.empty() ? "" : strCat(" (code of ", absl::StrJoin(c.sharedBy, ", "), ")"),
          "\n");
    }
  }
  out += "}\n";
  return out;
}

std::string_view hostCheckText(HostCheck::Kind kind) {
  switch (kind) {
  case HostCheck::Kind::DivisionByZero:
    return "integer division by zero";
  case HostCheck::Kind::ZeroToNegativePower:
    return "0 to a negative power";
  case HostCheck::Kind::IndexOutOfRange:
    return "index out of range";
  case HostCheck::Kind::ReflectPadTooWide:
    return "reflect padding as wide as the dim";
  case HostCheck::Kind::EdgePadOfEmpty:
    return "edge padding of an empty dim";
  case HostCheck::Kind::TopKBeyondDim:
    return "top_k of more elements than the dim has";
  case HostCheck::Kind::ClampedIndexOfEmpty:
    return "clamped indices into an empty dim";
  }
  return "data error";
}

std::string cooperativeSymbol(const std::string &symbol) { return symbol + ".coop"; }

std::vector<std::string> stepSources(const HostPlan &plan, const HostStep &step) {
  std::vector<std::string> sources;
  for (int index : step.buffers) {
    if (index < 0 || static_cast<size_t>(index) >= plan.buffers.size())
      continue;
    const HostBuffer &buffer = plan.buffers[static_cast<size_t>(index)];
    if (buffer.kind == HostBuffer::Kind::Input)
      sources.push_back(strCat("%", buffer.name));
    else if (buffer.kind == HostBuffer::Kind::Constant)
      sources.push_back(buffer.origin.empty() ? strCat("%", buffer.name)
                                              : strCat("%", buffer.name, " from ", buffer.origin));
  }
  return sources;
}

DimExpr HostLaunchVariant::blockBufferBytes(int phase) const {
  return phase >= 0 && static_cast<size_t>(phase) < phaseBlockBufferBytes.size()
             ? phaseBlockBufferBytes[static_cast<size_t>(phase)]
             : DimExpr(0);
}

DimExpr HostLaunchVariant::totalBlockBufferBytes() const {
  DimExpr total(0);
  for (const DimExpr &bytes : phaseBlockBufferBytes)
    total = total + bytes;
  return total;
}

std::vector<std::string> launchSymbols(const HostLaunchVariant &variant) {
  std::vector<std::string> symbols;
  for (int p = 0; p < variant.phases; ++p)
    symbols.push_back(phaseSymbol(variant.symbol, p));
  if (variant.cooperative)
    symbols.push_back(cooperativeSymbol(variant.symbol));
  return symbols;
}

} // namespace xs
