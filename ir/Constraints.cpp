#include "ir/Constraints.h"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

// Interval arithmetic saturates at the int64 limits, which stand for -inf and
// +inf: ranges of symbols are open-ended by default.
constexpr int64_t kInf = INT64_MAX;
constexpr int64_t kNegInf = INT64_MIN;

int64_t satAdd(int64_t a, int64_t b) {
  if (a == kInf || b == kInf)
    return kInf;
  if (a == kNegInf || b == kNegInf)
    return kNegInf;
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return a > 0 ? kInf : kNegInf;
  return r;
}

int64_t satMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  int64_t r;
  if (a == kInf || a == kNegInf || b == kInf || b == kNegInf || __builtin_mul_overflow(a, b, &r))
    return ((a > 0) == (b > 0)) ? kInf : kNegInf;
  return r;
}

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

DimRange mulRange(const DimRange &x, const DimRange &y) {
  int64_t c[] = {satMul(x.lo, y.lo), satMul(x.lo, y.hi), satMul(x.hi, y.lo), satMul(x.hi, y.hi)};
  return DimRange{*std::min_element(std::begin(c), std::end(c)),
                  *std::max_element(std::begin(c), std::end(c))};
}

// True when `symbol` occurs in `term` (directly or inside a floor division).
bool termMentions(const DimTerm &term, const std::string &symbol) {
  for (const DimAtom &a : term.factors) {
    if (a.isSymbol() ? a.symbol == symbol : !!std::ranges::count(a.numerator->symbols(), symbol))
      return true;
  }
  return false;
}

// If `symbol` occurs in `e` only as one term `c*symbol`, returns c.
std::optional<int64_t> linearCoefficient(const DimExpr &e, const std::string &symbol) {
  std::optional<int64_t> coefficient;
  for (const DimTerm &t : e.terms()) {
    if (!termMentions(t, symbol))
      continue;
    if (coefficient || t.factors.size() != 1 || !t.factors[0].isSymbol())
      return std::nullopt;
    coefficient = t.coefficient;
  }
  return coefficient;
}

std::string bindingsText(const std::vector<std::string> &symbols, const DimBindings &bindings) {
  std::vector<std::string> parts;
  for (const std::string &s : symbols) {
    auto it = bindings.find(s);
    parts.push_back(it == bindings.end() ? absl::StrCat(s, " unknown")
                                         : absl::StrCat(s, " = ", it->second));
  }
  return absl::StrJoin(parts, ", ");
}

// A broadcast fact's symbols in the order it reads, for messages.
std::vector<std::string> operandSymbols(const ConstraintStore::Broadcast &fact) {
  std::vector<std::string> out;
  for (const DimExpr &e : {fact.a, fact.b})
    for (const std::string &s : e.symbols())
      if (std::find(out.begin(), out.end(), s) == out.end())
        out.push_back(s);
  return out;
}
std::vector<std::string> resultAndOperandSymbols(const ConstraintStore::Broadcast &fact) {
  std::vector<std::string> out = operandSymbols(fact);
  out.insert(out.begin(), fact.result);
  return out;
}

std::string rangeText(const std::string &symbol, const DimRange &r) {
  if (r.hi == kInf)
    return absl::StrCat(symbol, " >= ", r.lo);
  if (r.lo == 0)
    return absl::StrCat(symbol, " <= ", r.hi);
  return absl::StrCat(r.lo, " <= ", symbol, " <= ", r.hi);
}

// Divides a difference by the gcd of its coefficients, so that 768*T - 768*B*S
// is solved like T - B*S.
DimExpr primitivePart(const DimExpr &diff) {
  int64_t g = 0;
  for (const DimTerm &t : diff.terms())
    g = std::gcd(g, t.coefficient);
  return g > 1 ? DimExpr::floorDiv(diff, g) : diff;
}

} // namespace

std::string Constraint::str() const {
  switch (kind) {
  case Kind::Equal:
    return absl::StrCat(lhs.str(), " == ", rhs.str());
  case Kind::Divisible: {
    std::string e = expr.str();
    if (expr.terms().size() > 1)
      e = absl::StrCat("(", e, ")");
    return absl::StrCat(e, " % ", divisor, " == 0");
  }
  case Kind::Range:
    return rangeText(symbol, range);
  case Kind::Broadcast:
    return absl::StrCat(symbol, " == broadcast(", lhs.str(), ", ", rhs.str(), ")");
  }
  assert(false && "unknown constraint kind");
  return "";
}

void ConstraintStore::noteSymbol(const std::string &symbol) {
  if (firstSeen_.contains(symbol))
    return;
  firstSeen_[symbol] = nextSeen_++;
  parent_[symbol] = symbol;
}

std::string ConstraintStore::find(const std::string &symbol) const {
  auto it = parent_.find(symbol);
  if (it == parent_.end() || it->second == symbol)
    return symbol;
  std::string root = find(std::string(it->second));
  parent_[symbol] = root;
  return root;
}

DimExpr ConstraintStore::canonicalize(const DimExpr &e) const {
  absl::flat_hash_map<std::string, DimExpr> map;
  for (const std::string &s : e.symbols()) {
    std::string rep = find(s);
    auto def = definitions_.find(rep);
    map.emplace(s, def != definitions_.end() ? def->second : DimExpr::symbol(rep));
  }
  return e.substitute(map);
}

std::optional<DimRange> ConstraintStore::boundsOf(const DimExpr &e) const {
  DimExpr c = canonicalize(e);
  DimRange total{0, 0};
  for (const DimTerm &t : c.terms()) {
    DimRange term{t.coefficient, t.coefficient};
    for (const DimAtom &a : t.factors) {
      DimRange atom;
      if (a.isSymbol()) {
        atom = rangeOf(a.symbol);
      } else {
        std::optional<DimRange> num = boundsOf(*a.numerator);
        if (!num)
          return std::nullopt;
        atom.lo = num->lo == kNegInf ? kNegInf : floorDivInt(num->lo, a.divisor);
        atom.hi = num->hi == kInf ? kInf : floorDivInt(num->hi, a.divisor);
      }
      term = mulRange(term, atom);
    }
    total.lo = satAdd(total.lo, term.lo);
    total.hi = satAdd(total.hi, term.hi);
  }
  if (total.lo == kNegInf && total.hi == kInf)
    return std::nullopt;
  return total;
}

DimRange ConstraintStore::rangeOf(const std::string &symbol) const {
  std::string rep = find(symbol);
  DimRange r;
  if (auto it = ranges_.find(rep); it != ranges_.end())
    r = it->second;
  if (auto def = definitions_.find(rep); def != definitions_.end()) {
    if (std::optional<int64_t> v = def->second.constantValue()) {
      r.lo = std::max(r.lo, *v);
      r.hi = std::min(r.hi, *v);
    }
  }
  return r;
}

// Divisors of the facts withQuotients uses: dims divided by more are not
// shapes an exporter writes, and their least common multiples stay far from
// overflow.
constexpr int64_t kMaxQuotientDivisor = int64_t(1) << 20;

DimExpr ConstraintStore::withQuotients(const DimExpr &e) const {
  // X % k == 0 makes X the multiple k*q of a fresh atom q, so that X/k reads
  // q and k*(X/k) reads X. The atom's name cannot be written in the text
  // format, so it never meets a symbol of the function.
  absl::flat_hash_map<std::string, int64_t> multiples;
  for (const auto &[expr, d] : divisibility_) {
    DimExpr c = canonicalize(expr);
    if (c.isSymbol() && d <= kMaxQuotientDivisor) {
      int64_t &m = multiples[c.symbolName()];
      m = std::lcm(m == 0 ? 1 : m, d); // at most 2^40: no overflow
      if (m > kMaxQuotientDivisor)
        m = d; // too fine to matter: the fact alone
    }
  }
  absl::flat_hash_map<std::string, DimExpr> map;
  for (const auto &[symbol, m] : multiples)
    map.emplace(symbol, m * DimExpr::symbol(absl::StrCat("{", symbol, "/", m, "}")));
  return e.substitute(map);
}

bool ConstraintStore::provablyEqual(const DimExpr &a, const DimExpr &b) const {
  DimExpr diff = primitivePart(canonicalize(a) - canonicalize(b));
  if (diff == DimExpr())
    return true;
  if (!divisibility_.empty() && withQuotients(diff) == DimExpr())
    return true;
  for (const auto &[lhs, rhs] : productGroups_) {
    DimExpr g = primitivePart(canonicalize(lhs) - canonicalize(rhs));
    if (diff == g || diff == -g)
      return true;
  }
  return false;
}

bool ConstraintStore::provablyDifferent(const DimExpr &a, const DimExpr &b) const {
  DimExpr diff = canonicalize(a) - canonicalize(b);
  if (diff == DimExpr())
    return false;
  // Every atom is an integer, so a difference whose non-constant
  // coefficients share a factor that does not divide the constant is never 0.
  int64_t g = 0, constant = 0;
  for (const DimTerm &t : diff.terms()) {
    if (t.factors.empty())
      constant = t.coefficient;
    else
      g = std::gcd(g, t.coefficient);
  }
  if (g == 0 || constant % g != 0)
    return true;
  std::optional<DimRange> bounds = boundsOf(diff);
  return bounds && (bounds->lo > 0 || bounds->hi < 0);
}

bool ConstraintStore::provablyDivisible(const DimExpr &e, int64_t divisor) const {
  if (divisor <= 0)
    return false;
  if (divisor == 1)
    return true;
  DimExpr c = canonicalize(e);
  for (const auto &[expr, d] : divisibility_)
    if (d % divisor == 0 && canonicalize(expr) == c)
      return true;
  auto symbolMultiple = [&](const std::string &symbol) -> int64_t {
    int64_t best = 1;
    for (const auto &[expr, d] : divisibility_)
      if (canonicalize(expr) == DimExpr::symbol(symbol))
        best = std::lcm(best, d);
    return best;
  };
  for (const DimTerm &t : c.terms()) {
    __int128 multiple = t.coefficient;
    for (const DimAtom &a : t.factors)
      if (a.isSymbol())
        multiple *= symbolMultiple(a.symbol);
    if (multiple % divisor != 0)
      return false;
  }
  return true;
}

void ConstraintStore::noteHostSymbol(const std::string &symbol) {
  noteSymbol(symbol);
  hostSymbols_.insert(symbol);
}

absl::Status ConstraintStore::addEqual(const DimExpr &lhs, const DimExpr &rhs) {
  // Work on a copy so that a contradiction found while propagating leaves the
  // store as it was.
  ConstraintStore next = *this;
  // Symbols new to the store are noted in name order, not in the order the
  // fact writes them, so `A == -B` and `B == -A` solve for the same symbol
  // and printing the facts then parsing them back is a fixpoint.
  std::vector<std::string> both = lhs.symbols();
  for (const std::string &s : rhs.symbols())
    both.push_back(s);
  std::sort(both.begin(), both.end());
  both.erase(std::unique(both.begin(), both.end()), both.end());
  for (const std::string &s : both)
    next.noteSymbol(s);
  std::vector<std::pair<DimExpr, DimExpr>> pending = {{lhs, rhs}};
  std::vector<std::pair<DimExpr, DimExpr>> resolved;
  while (!pending.empty()) {
    auto [a, b] = pending.back();
    pending.pop_back();
    DimExpr ca = next.canonicalize(a), cb = next.canonicalize(b);
    DimExpr diff = primitivePart(ca - cb);
    if (diff == DimExpr())
      continue;
    if (next.provablyDifferent(ca, cb)) {
      std::string why = absl::StrCat(ca.str(), " == ", cb.str());
      if (ca != a || cb != b)
        return absl::InvalidArgumentError(
            absl::StrCat(lhs.str(), " == ", rhs.str(),
                         " cannot hold: under the known facts it reads ", why, ", which is false"));
      return absl::InvalidArgumentError(
          absl::StrCat(lhs.str(), " == ", rhs.str(), " cannot hold for any sizes"));
    }
    // Solve for the symbol seen last among those that occur linearly with
    // coefficient +-1, so that earlier names (the signature's) survive.
    std::string solved;
    DimExpr value;
    bool mentionsHostSymbol = false;
    for (const std::string &s : diff.symbols())
      mentionsHostSymbol |= next.hostSymbols_.contains(s);
    for (const std::string &s : diff.symbols()) {
      std::optional<int64_t> c = linearCoefficient(diff, s);
      if (!c || (*c != 1 && *c != -1))
        continue;
      if (mentionsHostSymbol && !next.hostSymbols_.contains(s))
        continue;
      if (solved.empty() || next.firstSeen_[s] > next.firstSeen_[solved]) {
        solved = s;
        // diff = c*s + rest, so s = -c*rest = s - c*diff.
        value = DimExpr::symbol(s) - *c * diff;
      }
    }
    // c*x + k == 0 with one symbol x: x = -k/c (divisibility was checked by
    // provablyDifferent).
    if (solved.empty() && diff.terms().size() <= 2 && diff.symbols().size() == 1) {
      std::string s = diff.symbols()[0];
      if (std::optional<int64_t> c = linearCoefficient(diff, s)) {
        std::optional<int64_t> k = (diff - *c * DimExpr::symbol(s)).constantValue();
        if (k && *k % *c == 0) {
          solved = s;
          value = DimExpr(-*k / *c);
        }
      }
    }
    if (solved.empty()) {
      next.productGroups_.push_back({ca, cb});
      continue;
    }
    // Ranges of the solved symbol move to its new class or must admit its
    // new constant value.
    DimRange solvedRange = next.rangeOf(solved);
    if (value.isSymbol()) {
      DimRange &target = next.ranges_[value.symbolName()];
      target.lo = std::max(target.lo, solvedRange.lo);
      target.hi = std::min(target.hi, solvedRange.hi);
      if (target.lo > target.hi)
        return absl::InvalidArgumentError(absl::StrCat(lhs.str(), " == ", rhs.str(),
                                                       " contradicts the ranges of ", solved,
                                                       " and ", value.symbolName()));
      next.ranges_.erase(solved);
      next.parent_[solved] = value.symbolName();
      next.definitions_.erase(solved);
    } else {
      if (std::optional<int64_t> v = value.constantValue();
          v && (*v < solvedRange.lo || *v > solvedRange.hi))
        return absl::InvalidArgumentError(absl::StrCat(
            lhs.str(), " == ", rhs.str(), " contradicts ", rangeText(solved, solvedRange)));
      next.definitions_[solved] = value;
    }
    absl::flat_hash_map<std::string, DimExpr> replace = {{solved, value}};
    for (auto &[rep, def] : next.definitions_)
      if (rep != solved)
        def = def.substitute(replace);
    // A product group may now be solvable, trivial, or contradictory.
    for (auto &group : next.productGroups_)
      pending.push_back(group);
    next.productGroups_.clear();
    if (!pending.empty())
      continue;
    // A broadcast fact the new classes decide becomes its result's equality.
    for (size_t i = 0; i < next.broadcasts_.size();) {
      const Broadcast &fact = next.broadcasts_[i];
      absl::StatusOr<std::optional<DimExpr>> value = next.resolution(fact);
      if (!value.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(lhs.str(), " == ", rhs.str(), " cannot hold: ", value.status().message()));
      if (!*value) {
        ++i;
        continue;
      }
      DimExpr result = DimExpr::symbol(fact.result);
      pending.push_back({result, **value});
      resolved.push_back({result, **value});
      next.broadcasts_.erase(next.broadcasts_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (lhs != rhs)
    next.recordEquality(lhs, rhs);
  for (auto &equality : resolved)
    if (equality.first != equality.second)
      next.recordEquality(std::move(equality.first), std::move(equality.second));
  *this = std::move(next);
  return absl::OkStatus();
}

absl::Status ConstraintStore::addDivisible(const DimExpr &expr, int64_t divisor) {
  if (divisor <= 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the divisor in ", expr.str(), " % ", divisor, " == 0 must be positive"));
  DimExpr c = canonicalize(expr);
  int64_t g = divisor, constant = 0;
  for (const DimTerm &t : c.terms()) {
    if (t.factors.empty())
      constant = t.coefficient;
    else
      g = std::gcd(g, t.coefficient);
  }
  if (constant % g != 0)
    return absl::InvalidArgumentError(
        absl::StrCat(expr.str(), " % ", divisor, " == 0 cannot hold for any sizes"));
  for (const std::string &s : expr.symbols())
    noteSymbol(s);
  if (!c.isConstant())
    divisibility_.push_back({expr, divisor});
  return absl::OkStatus();
}

absl::Status ConstraintStore::addRange(const std::string &symbol, int64_t lo, int64_t hi) {
  noteSymbol(symbol);
  std::string rep = find(symbol);
  DimRange current = rangeOf(rep);
  DimRange merged{std::max(current.lo, lo), std::min(current.hi, hi)};
  if (merged.lo > merged.hi)
    return absl::InvalidArgumentError(absl::StrCat(rangeText(symbol, DimRange{lo, hi}),
                                                   " contradicts ", rangeText(symbol, current)));
  DimRange &stored = ranges_[rep];
  stored.lo = std::max(stored.lo, lo);
  stored.hi = std::min(stored.hi, hi);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<DimExpr>> ConstraintStore::resolution(const Broadcast &fact) const {
  DimExpr a = canonicalize(fact.a), b = canonicalize(fact.b);
  if (provablyEqual(a, b) || b == DimExpr(1))
    return std::optional<DimExpr>(a);
  if (a == DimExpr(1))
    return std::optional<DimExpr>(b);
  if (provablyDifferent(a, b) && provablyDifferent(a, DimExpr(1)) &&
      provablyDifferent(b, DimExpr(1)))
    return absl::InvalidArgumentError(absl::StrCat(
        fact.a.str(), " and ", fact.b.str(), " meet in a broadcast (", fact.result,
        "), so they must be equal or one of them 1, but they read ", a.str(), " and ", b.str()));
  return std::optional<DimExpr>();
}

absl::Status ConstraintStore::addBroadcast(const std::string &result, const DimExpr &a,
                                           const DimExpr &b) {
  ConstraintStore next = *this;
  for (const DimExpr &e : {a, b})
    for (const std::string &s : e.symbols())
      next.noteSymbol(s);
  next.noteSymbol(result);
  Broadcast fact{result, a, b};
  absl::StatusOr<std::optional<DimExpr>> value = next.resolution(fact);
  if (!value.ok())
    return value.status();
  if (*value) {
    XS_RETURN_IF_ERROR(next.addEqual(DimExpr::symbol(result), **value));
  } else {
    next.broadcasts_.push_back(std::move(fact));
  }
  *this = std::move(next);
  return absl::OkStatus();
}

std::vector<ConstraintStore::Broadcast> ConstraintStore::broadcasts() const {
  std::vector<Broadcast> out;
  for (const Broadcast &fact : broadcasts_)
    out.push_back({fact.result, canonicalize(fact.a), canonicalize(fact.b)});
  return out;
}

bool ConstraintStore::broadcastsTo(const DimExpr &from, const DimExpr &to) const {
  DimExpr f = canonicalize(from), t = canonicalize(to);
  for (const Broadcast &fact : broadcasts_)
    if (canonicalize(DimExpr::symbol(fact.result)) == t &&
        (canonicalize(fact.a) == f || canonicalize(fact.b) == f))
      return true;
  return false;
}

void ConstraintStore::recordEquality(DimExpr lhs, DimExpr rhs) {
  DimExpr diff = lhs - rhs;
  Difference difference{diff.symbols(), {}};
  for (const std::string &s : difference.symbols)
    if (std::optional<int64_t> c = linearCoefficient(diff, s))
      difference.solutions.push_back({s, *c, diff - *c * DimExpr::symbol(s)});
  differences_.push_back(std::move(difference));
  equalities_.push_back({std::move(lhs), std::move(rhs)});
}

void ConstraintStore::deriveBindings(DimBindings &bindings) const {
  // Each recorded equality with exactly one unbound symbol, occurring
  // linearly, determines that symbol; repeat until nothing new is bound.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Difference &difference : differences_) {
      const std::string *unbound = nullptr;
      int unboundCount = 0;
      for (const std::string &s : difference.symbols)
        if (!bindings.contains(s)) {
          unbound = &s;
          ++unboundCount;
        }
      if (unboundCount != 1)
        continue;
      for (const Difference::Solution &solution : difference.solutions) {
        if (solution.symbol != *unbound)
          continue;
        absl::StatusOr<int64_t> rest = solution.rest.evaluate(bindings);
        if (!rest.ok() || *rest % solution.coefficient != 0)
          break;
        bindings[*unbound] = -*rest / solution.coefficient;
        changed = true;
        break;
      }
    }
    for (const Broadcast &fact : broadcasts_) {
      if (bindings.contains(fact.result))
        continue;
      absl::StatusOr<int64_t> a = fact.a.evaluate(bindings), b = fact.b.evaluate(bindings);
      if (!a.ok() || !b.ok())
        continue;
      bindings[fact.result] = *a == 1 ? *b : *a;
      changed = true;
    }
  }
}

absl::Status ConstraintStore::check(const DimBindings &given) const {
  // Runs at every call of a compiled function: a fact's text is built only
  // for the message of one that fails.
  DimBindings bindings = given;
  deriveBindings(bindings);
  auto unknown = [&](const absl::Status &status, const std::string &fact) {
    return absl::InvalidArgumentError(absl::StrCat("cannot check ", fact, ": ", status.message()));
  };
  for (const auto &[lhs, rhs] : equalities_) {
    absl::StatusOr<int64_t> l = lhs.evaluate(bindings), r = rhs.evaluate(bindings);
    if (l.ok() && r.ok() && *l == *r)
      continue;
    std::string fact = absl::StrCat(lhs.str(), " == ", rhs.str());
    if (!l.ok() || !r.ok())
      return unknown(!l.ok() ? l.status() : r.status(), fact);
    return absl::InvalidArgumentError(
        absl::StrCat(fact, " does not hold: ", bindingsText((lhs - rhs).symbols(), bindings)));
  }
  for (const auto &[expr, divisor] : divisibility_) {
    absl::StatusOr<int64_t> v = expr.evaluate(bindings);
    if (v.ok() && *v % divisor == 0)
      continue;
    Constraint c{Constraint::Kind::Divisible, {}, {}, expr, divisor, {}, {}};
    if (!v.ok())
      return unknown(v.status(), c.str());
    return absl::InvalidArgumentError(
        absl::StrCat(c.str(), " does not hold: ", bindingsText(expr.symbols(), bindings)));
  }
  for (const Broadcast &fact : broadcasts_) {
    absl::StatusOr<int64_t> a = fact.a.evaluate(bindings), b = fact.b.evaluate(bindings);
    absl::StatusOr<int64_t> result = DimExpr::symbol(fact.result).evaluate(bindings);
    if (a.ok() && b.ok() && result.ok() && (*a == *b || *a == 1 || *b == 1) &&
        *result == (*a == 1 ? *b : *a))
      continue;
    std::string text =
        Constraint{Constraint::Kind::Broadcast, fact.a, fact.b, {}, 1, fact.result, {}}.str();
    for (const absl::StatusOr<int64_t> *v : {&a, &b, &result})
      if (!v->ok())
        return unknown(v->status(), text);
    if (*a != *b && *a != 1 && *b != 1)
      return absl::InvalidArgumentError(
          absl::StrCat(fact.a.str(), " and ", fact.b.str(),
                       " meet in a broadcast, so they must be equal or one of them 1: ",
                       bindingsText(operandSymbols(fact), bindings)));
    return absl::InvalidArgumentError(absl::StrCat(
        text, " does not hold: ", bindingsText(resultAndOperandSymbols(fact), bindings)));
  }
  // Ranges (every dim at least 0): the first violated in order of first
  // appearance, looked for only once one is.
  bool violated = false;
  for (const auto &[s, seen] : firstSeen_) {
    auto it = bindings.find(s);
    if (it == bindings.end())
      continue;
    DimRange r = rangeOf(s);
    violated = violated || it->second < r.lo || it->second > r.hi;
  }
  if (!violated)
    return absl::OkStatus();
  for (const std::string &s : symbolsInOrder()) {
    auto it = bindings.find(s);
    if (it == bindings.end())
      continue;
    DimRange r = rangeOf(s);
    if (it->second < r.lo || it->second > r.hi)
      return absl::InvalidArgumentError(
          absl::StrCat(rangeText(s, r), " does not hold: ", s, " = ", it->second));
  }
  return absl::OkStatus();
}

std::vector<std::string> ConstraintStore::symbolsInOrder() const {
  std::vector<std::string> symbols;
  for (const auto &[s, seen] : firstSeen_)
    symbols.push_back(s);
  std::sort(symbols.begin(), symbols.end(), [&](const std::string &a, const std::string &b) {
    return firstSeen_.at(a) < firstSeen_.at(b);
  });
  return symbols;
}

std::vector<Constraint> ConstraintStore::facts() const {
  std::vector<std::string> symbols = symbolsInOrder();
  std::vector<Constraint> out;
  auto equal = [](DimExpr l, DimExpr r) {
    Constraint c{Constraint::Kind::Equal, std::move(l), std::move(r), {}, 1, {}, {}};
    return c;
  };
  // Class members, grouped by representative in order of first appearance.
  for (const std::string &rep : symbols) {
    if (find(rep) != rep)
      continue;
    for (const std::string &member : symbols)
      if (member != rep && find(member) == rep)
        out.push_back(equal(DimExpr::symbol(rep), DimExpr::symbol(member)));
  }
  for (const std::string &rep : symbols)
    if (auto it = definitions_.find(rep); it != definitions_.end() && find(rep) == rep)
      out.push_back(equal(DimExpr::symbol(rep), it->second));
  for (const auto &[lhs, rhs] : productGroups_)
    out.push_back(equal(canonicalize(lhs), canonicalize(rhs)));
  std::vector<std::pair<DimExpr, int64_t>> divisible;
  for (const auto &[expr, divisor] : divisibility_) {
    std::pair<DimExpr, int64_t> fact{canonicalize(expr), divisor};
    if (std::find(divisible.begin(), divisible.end(), fact) == divisible.end())
      divisible.push_back(fact);
  }
  for (auto &[expr, divisor] : divisible)
    out.push_back(Constraint{Constraint::Kind::Divisible, {}, {}, expr, divisor, {}, {}});
  for (const Broadcast &fact : broadcasts())
    out.push_back(Constraint{Constraint::Kind::Broadcast, fact.a, fact.b, {}, 1, fact.result, {}});
  for (const std::string &rep : symbols) {
    auto it = ranges_.find(rep);
    if (it == ranges_.end() || find(rep) != rep || (it->second.lo <= 0 && it->second.hi == kInf))
      continue;
    DimRange r = it->second;
    r.lo = std::max<int64_t>(r.lo, 0);
    out.push_back(Constraint{Constraint::Kind::Range, {}, {}, {}, 1, rep, r});
  }
  return out;
}

bool ConstraintStore::empty() const { return facts().empty(); }

} // namespace xs
