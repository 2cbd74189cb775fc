#ifndef XSTITCH_IR_CONSTRAINTS_H
#define XSTITCH_IR_CONSTRAINTS_H

// The function-scoped store of what is known about symbolic dims (DISC's
// shape constraints). Shape inference fills it; every later pass asks it
// instead of re-deriving facts; the host plan checks it at run time.
//
// Kinds of fact:
//   - equalities: symbols in one class of a union-find; a class may also be
//     defined by an expression over other classes (T == B*S);
//   - product groups: equalities between products that cannot be solved for a
//     single symbol (B*S == T*U after two reshapes);
//   - divisibility: expr % k == 0;
//   - ranges: lo <= sym <= hi (every dim is at least 0 by default);
//   - broadcasts: D == broadcast(N, M), the dim two dims meet in under numpy
//     broadcasting: N == M == D, or N == 1 and D == M, or M == 1 and D == N.
//     Which holds is known only at a call; the compile driver speculates
//     (transforms/SpeculateBroadcasts.h) and compiles one variant for each,
//     so a fact of this kind is resolved before planning. An equality that
//     decides it (N == M, N == 1) resolves it into D's equality.
// In the text format they follow the signature: `where N == M, S % 8 == 0,
// 1 <= B <= 64, D == broadcast(N, M)`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "ir/DimExpr.h"

namespace xs {

struct DimRange {
  int64_t lo = 0;
  int64_t hi = INT64_MAX;
};

/// One fact, as written in the text format.
struct Constraint {
  enum class Kind { Equal, Divisible, Range, Broadcast };
  Kind kind;
  DimExpr lhs, rhs; // Equal: lhs == rhs; Broadcast: symbol == broadcast(lhs, rhs)
  DimExpr expr;     // Divisible: expr % divisor == 0
  int64_t divisor = 1;
  std::string symbol; // Range: lo <= symbol <= hi; Broadcast: the result
  DimRange range;
  std::string str() const;
};

class ConstraintStore {
public:
  /// Records lhs == rhs. Fails (without changing the store) when the two are
  /// provably different, e.g. 3 == 4 or N == N + 1; the message says why.
  absl::Status addEqual(const DimExpr &lhs, const DimExpr &rhs);
  /// Records expr % divisor == 0 (divisor > 0). Fails when provably false.
  absl::Status addDivisible(const DimExpr &expr, int64_t divisor);
  /// Registers a symbol so that its order of first appearance decides which
  /// name represents an equality class. The parser calls this for symbols in
  /// parameter types, left to right.
  void noteSymbol(const std::string &symbol);
  /// Whether `symbol` was noted or appears in a fact.
  bool knowsSymbol(const std::string &symbol) const { return firstSeen_.contains(symbol); }
  /// Marks a host symbol (ir/HostSymbols.h). It is known only after the
  /// parameters' symbols are bound, so no fact defines another symbol by it:
  /// N == R0*R1 stays a fact to check rather than making N mean R0*R1.
  void noteHostSymbol(const std::string &symbol);
  /// Intersects the range of `symbol` with [lo, hi]. Fails when empty.
  absl::Status addRange(const std::string &symbol, int64_t lo, int64_t hi);
  /// Records `result == broadcast(a, b)` for a symbol `result` no other fact
  /// mentions yet. Resolved at once when the known facts decide it (a == b,
  /// or one of them 1); fails when they refute it (3 and 4).
  absl::Status addBroadcast(const std::string &result, const DimExpr &a, const DimExpr &b);

  /// An unresolved broadcast fact, its operands canonicalized.
  struct Broadcast {
    std::string result;
    DimExpr a, b;
  };
  /// The broadcast facts not yet resolved, in the order they were recorded.
  std::vector<Broadcast> broadcasts() const;
  /// Whether a broadcast fact makes `to` the dim `from` broadcasts to.
  bool broadcastsTo(const DimExpr &from, const DimExpr &to) const;

  /// Rewrites an expression to its canonical form under the equalities: each
  /// symbol replaced by its class representative or definition.
  DimExpr canonicalize(const DimExpr &e) const;
  bool provablyEqual(const DimExpr &a, const DimExpr &b) const;
  /// True when a == b cannot hold for any values (different constants after
  /// canonicalization, or a difference that is a non-zero constant).
  bool provablyDifferent(const DimExpr &a, const DimExpr &b) const;
  bool provablyDivisible(const DimExpr &e, int64_t divisor) const;
  /// The known range of a symbol (after canonicalization to its class).
  DimRange rangeOf(const std::string &symbol) const;
  /// Bounds of an expression from the ranges of its symbols, when derivable.
  std::optional<DimRange> boundsOf(const DimExpr &e) const;

  /// Checks every fact against concrete symbol values; the error names the
  /// violated fact and the values, e.g. "N == M does not hold: N = 3, M = 4".
  absl::Status check(const DimBindings &bindings) const;
  /// Extends `bindings` with values of symbols that are defined by others
  /// (T == B*S binds T when B and S are bound).
  void deriveBindings(DimBindings &bindings) const;

  /// The facts in a canonical order, for printing (`where ...`).
  std::vector<Constraint> facts() const;
  /// Every known symbol in order of first appearance, and which are host
  /// symbols: with facts(), what rebuilds an equivalent store (a serialized
  /// host plan's).
  std::vector<std::string> symbolsInOrder() const;
  bool isHostSymbol(const std::string &symbol) const { return hostSymbols_.contains(symbol); }
  bool empty() const;

private:
  std::string find(const std::string &symbol) const;
  // `e` (canonical) with each symbol X that a fact makes a multiple of k
  // written k*q: what lets k*(X/k) - X cancel.
  DimExpr withQuotients(const DimExpr &e) const;
  // Union-find over symbol names; the representative is the symbol that was
  // seen first, so names from the signature win over later ones.
  mutable absl::flat_hash_map<std::string, std::string> parent_;
  absl::flat_hash_map<std::string, int64_t> firstSeen_;
  int64_t nextSeen_ = 0;
  // Representative -> expression over other representatives.
  absl::flat_hash_map<std::string, DimExpr> definitions_;
  std::vector<std::pair<DimExpr, DimExpr>> productGroups_;
  std::vector<std::pair<DimExpr, int64_t>> divisibility_;
  absl::flat_hash_map<std::string, DimRange> ranges_;
  absl::flat_hash_set<std::string> hostSymbols_;
  // Every equality as recorded, for check() and facts().
  std::vector<std::pair<DimExpr, DimExpr>> equalities_;
  // Each equality as lhs - rhs == 0 with its symbols, computed when it is
  // recorded: deriveBindings runs at every call of a compiled function.
  struct Difference {
    std::vector<std::string> symbols;
    // For each symbol s occurring linearly, diff == coefficient*s + rest.
    struct Solution {
      std::string symbol;
      int64_t coefficient;
      DimExpr rest;
    };
    std::vector<Solution> solutions;
  };
  std::vector<Difference> differences_;
  void recordEquality(DimExpr lhs, DimExpr rhs);
  // Unresolved broadcast facts as recorded.
  std::vector<Broadcast> broadcasts_;
  // What a broadcast fact reads once its operands are known: the value its
  // result takes (nullopt: still open); an error when they refute it.
  absl::StatusOr<std::optional<DimExpr>> resolution(const Broadcast &fact) const;
};

} // namespace xs

#endif // XSTITCH_IR_CONSTRAINTS_H
