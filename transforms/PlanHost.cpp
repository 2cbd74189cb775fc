// The host plan's symbol list and the liveness slots of its temporaries.

#include <algorithm>
#include <cassert>

#include "absl/container/flat_hash_set.h"
#include "ir/HostSymbols.h"
#include "transforms/PlanInternal.h"

namespace xs::plan {

namespace {

/// Appends the symbols of `e` not yet in `seen`, in the order DimExpr lists them.
void appendSymbols(const DimExpr &e, std::vector<std::string> &out,
                   absl::flat_hash_set<std::string> &seen) {
  for (const std::string &s : e.symbols())
    if (seen.insert(s).second)
      out.push_back(s);
}

/// Any value works for checking derivability; a highly composite one keeps
/// deriveBindings' divisibility checks from rejecting a derivable symbol.
constexpr int64_t kProbeValue = 720720;

absl::Status checkDerivable(const TensorType &type, const DimBindings &bound, const Location &loc,
                            std::string_view what) {
  for (const DimExpr &d : type.shape())
    for (const std::string &s : d.symbols())
      if (!bound.contains(s))
        return errorAtCat(loc, "cannot compute dim symbol '", s, "' of ", what, " (", type.str(),
                          ") from the input shapes; give it a parameter dim or an equality "
                          "with the input dims in the 'where' clause");
  return absl::OkStatus();
}

} // namespace

absl::Status collectSymbols(const Function &function, const std::vector<DimExpr> &planExprs,
                            HostPlan &host) {
  std::vector<std::string> symbols;
  absl::flat_hash_set<std::string> seen;
  DimBindings bound;
  for (const auto &param : function.params())
    for (const DimExpr &d : param->type().shape()) {
      appendSymbols(d, symbols, seen);
      if (d.isSymbol())
        bound[d.symbolName()] = kProbeValue;
    }
  if (const HostSymbols *hostSymbols = function.hostSymbols())
    for (const std::string &s : hostSymbols->symbols) {
      bound[s] = kProbeValue;
      if (seen.insert(s).second)
        symbols.push_back(s);
    }
  function.constraints().deriveBindings(bound);

  for (const auto &param : function.params())
    if (absl::Status s = checkDerivable(param->type(), bound, param->loc(),
                                        strCat("parameter %", param->name()));
        !s.ok())
      return s;
  for (const auto &op : function.ops()) {
    if (absl::Status s =
            checkDerivable(op->type(), bound, op->loc(), strCat("%", op->result()->name()));
        !s.ok())
      return s;
    for (const DimExpr &d : op->type().shape())
      appendSymbols(d, symbols, seen);
  }
  for (const DimExpr &e : planExprs) {
    for (const std::string &s : e.symbols())
      if (!bound.contains(s))
        return absl::InternalError(strCat("kernel planning produced a dim over symbol '", s,
                                          "' that the input shapes do not determine: ", e.str()));
    appendSymbols(e, symbols, seen);
  }
  host.symbols = std::move(symbols);
  return absl::OkStatus();
}

void assignSlots(HostPlan &host) {
  // The buffer that owns the memory of each buffer (aliases resolve to it).
  auto owner = [&](int b) {
    while (host.buffers[b].kind == HostBuffer::Kind::Alias)
      b = host.buffers[b].aliasOf;
    return b;
  };
  size_t n = host.buffers.size();
  std::vector<int> firstStep(n, -1), lastStep(n, -1);
  for (size_t s = 0; s < host.steps.size(); ++s)
    for (int b : host.steps[s].buffers) {
      int o = owner(b);
      if (firstStep[o] < 0)
        firstStep[o] = static_cast<int>(s);
      lastStep[o] = static_cast<int>(s);
    }

  // Greedy in step order: a temporary defined at step s may reuse a slot
  // whose buffers were all last used before s (a kernel must not write a
  // slot it still reads).
  std::vector<int> slotBusyUntil;
  for (size_t s = 0; s < host.steps.size(); ++s)
    for (size_t b = 0; b < n; ++b) {
      HostBuffer &buffer = host.buffers[b];
      if (buffer.kind != HostBuffer::Kind::Temporary || firstStep[b] != static_cast<int>(s))
        continue;
      int slot = -1;
      for (size_t k = 0; k < slotBusyUntil.size() && slot < 0; ++k)
        if (slotBusyUntil[k] < static_cast<int>(s))
          slot = static_cast<int>(k);
      if (slot < 0) {
        slot = static_cast<int>(slotBusyUntil.size());
        slotBusyUntil.push_back(-1);
      }
      buffer.slot = slot;
      slotBusyUntil[slot] = lastStep[b];
    }
  host.numSlots = static_cast<int>(slotBusyUntil.size());
#ifndef NDEBUG
  for (const HostBuffer &buffer : host.buffers)
    assert((buffer.kind != HostBuffer::Kind::Temporary || buffer.slot >= 0) &&
           "every temporary is written by some step");
#endif
}

} // namespace xs::plan
