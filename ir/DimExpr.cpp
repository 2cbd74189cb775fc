#include "ir/DimExpr.h"

#include <algorithm>
#include <cassert>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace xs {

namespace {

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

bool lessFactors(const std::vector<DimAtom> &a, const std::vector<DimAtom> &b) {
  if (a.size() != b.size())
    return a.size() > b.size(); // higher degree first
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

std::string atomStr(const DimAtom &a) {
  if (a.isSymbol())
    return a.symbol;
  std::string num = a.numerator->str();
  if (!a.numerator->isSymbol() && !a.numerator->isConstant())
    num = absl::StrCat("(", num, ")");
  return absl::StrCat(num, "/", a.divisor);
}

} // namespace

bool operator==(const DimAtom &a, const DimAtom &b) {
  if (a.isSymbol() != b.isSymbol())
    return false;
  if (a.isSymbol())
    return a.symbol == b.symbol;
  return a.divisor == b.divisor && *a.numerator == *b.numerator;
}

bool operator<(const DimAtom &a, const DimAtom &b) {
  if (a.isSymbol() != b.isSymbol())
    return a.isSymbol(); // symbols first
  if (a.isSymbol())
    return a.symbol < b.symbol;
  if (*a.numerator != *b.numerator)
    return *a.numerator < *b.numerator;
  return a.divisor < b.divisor;
}

bool operator==(const DimTerm &a, const DimTerm &b) {
  return a.coefficient == b.coefficient && a.factors == b.factors;
}

bool operator<(const DimExpr &a, const DimExpr &b) {
  const auto &x = a.terms_, &y = b.terms_;
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (x[i].factors != y[i].factors)
      return lessFactors(x[i].factors, y[i].factors);
    if (x[i].coefficient != y[i].coefficient)
      return x[i].coefficient < y[i].coefficient;
  }
  return x.size() < y.size();
}

DimExpr::DimExpr(int64_t constant) {
  if (constant != 0)
    terms_.push_back(DimTerm{constant, {}});
}

DimExpr DimExpr::symbol(std::string_view name) {
  DimExpr e;
  DimAtom atom;
  atom.symbol = std::string(name);
  e.terms_.push_back(DimTerm{1, {std::move(atom)}});
  return e;
}

void DimExpr::normalize() {
  for (DimTerm &t : terms_)
    std::sort(t.factors.begin(), t.factors.end());
  std::sort(terms_.begin(), terms_.end(),
            [](const DimTerm &a, const DimTerm &b) { return lessFactors(a.factors, b.factors); });
  std::vector<DimTerm> merged;
  for (DimTerm &t : terms_) {
    if (!merged.empty() && merged.back().factors == t.factors)
      merged.back().coefficient += t.coefficient;
    else
      merged.push_back(std::move(t));
  }
  merged.erase(std::remove_if(merged.begin(), merged.end(),
                              [](const DimTerm &t) { return t.coefficient == 0; }),
               merged.end());
  terms_ = std::move(merged);
}

DimExpr operator+(const DimExpr &a, const DimExpr &b) {
  DimExpr r = a;
  r.terms_.insert(r.terms_.end(), b.terms_.begin(), b.terms_.end());
  r.normalize();
  return r;
}

DimExpr DimExpr::operator-() const {
  DimExpr r = *this;
  for (DimTerm &t : r.terms_)
    t.coefficient = -t.coefficient;
  return r;
}

DimExpr operator-(const DimExpr &a, const DimExpr &b) { return a + (-b); }

DimExpr operator*(const DimExpr &a, const DimExpr &b) {
  DimExpr r;
  for (const DimTerm &x : a.terms_) {
    for (const DimTerm &y : b.terms_) {
      DimTerm t{x.coefficient * y.coefficient, x.factors};
      t.factors.insert(t.factors.end(), y.factors.begin(), y.factors.end());
      r.terms_.push_back(std::move(t));
    }
  }
  r.normalize();
  return r;
}

DimExpr DimExpr::floorDiv(const DimExpr &e, int64_t divisor) {
  assert(divisor > 0 && "floorDiv by a non-positive constant");
  if (divisor == 1)
    return e;
  // floor((k*a + r) / k) = a + floor(r / k) for integer a: pull out every
  // multiple of the divisor, then the constant's multiple.
  DimExpr quotient, rest;
  for (const DimTerm &t : e.terms_) {
    int64_t q = t.factors.empty() ? floorDivInt(t.coefficient, divisor) : t.coefficient / divisor;
    int64_t r = t.coefficient - q * divisor;
    if (q != 0)
      quotient.terms_.push_back(DimTerm{q, t.factors});
    if (r != 0)
      rest.terms_.push_back(DimTerm{r, t.factors});
  }
  quotient.normalize();
  rest.normalize();
  if (rest.terms_.empty())
    return quotient;
  if (rest.isConstant())
    return quotient; // 0 <= constant rest < divisor
  // floor(floor(x / a) / b) = floor(x / (a*b)).
  if (rest.terms_.size() == 1 && rest.terms_[0].coefficient == 1 &&
      rest.terms_[0].factors.size() == 1 && !rest.terms_[0].factors[0].isSymbol()) {
    const DimAtom &inner = rest.terms_[0].factors[0];
    return quotient + floorDiv(*inner.numerator, inner.divisor * divisor);
  }
  DimAtom atom;
  atom.numerator = std::make_shared<const DimExpr>(std::move(rest));
  atom.divisor = divisor;
  DimExpr r;
  r.terms_.push_back(DimTerm{1, {std::move(atom)}});
  return quotient + r;
}

std::optional<DimExpr> DimExpr::exactDiv(const DimExpr &e, const DimExpr &divisor) {
  if (divisor.terms_.size() != 1 || divisor.terms_[0].coefficient == 0)
    return std::nullopt;
  const DimTerm &d = divisor.terms_[0];
  DimExpr quotient;
  for (const DimTerm &t : e.terms_) {
    if (t.coefficient % d.coefficient != 0)
      return std::nullopt;
    // Both factor lists are sorted: remove d's factors from t's, each once.
    std::vector<DimAtom> rest;
    size_t k = 0;
    for (const DimAtom &atom : t.factors) {
      if (k < d.factors.size() && atom == d.factors[k])
        ++k;
      else
        rest.push_back(atom);
    }
    if (k != d.factors.size())
      return std::nullopt;
    quotient.terms_.push_back(DimTerm{t.coefficient / d.coefficient, std::move(rest)});
  }
  quotient.normalize();
  return quotient;
}

DimExpr DimExpr::ceilDiv(const DimExpr &e, int64_t divisor) {
  return floorDiv(e + DimExpr(divisor - 1), divisor);
}

bool DimExpr::isConstant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_[0].factors.empty());
}

std::optional<int64_t> DimExpr::constantValue() const {
  if (terms_.empty())
    return 0;
  if (isConstant())
    return terms_[0].coefficient;
  return std::nullopt;
}

bool DimExpr::isSymbol() const {
  return terms_.size() == 1 && terms_[0].coefficient == 1 && terms_[0].factors.size() == 1 &&
         terms_[0].factors[0].isSymbol();
}

const std::string &DimExpr::symbolName() const {
  assert(isSymbol() && "symbolName() on a non-symbol expression");
  return terms_[0].factors[0].symbol;
}

std::vector<std::string> DimExpr::symbols() const {
  std::vector<std::string> out;
  for (const DimTerm &t : terms_) {
    for (const DimAtom &a : t.factors) {
      if (a.isSymbol()) {
        out.push_back(a.symbol);
      } else {
        std::vector<std::string> inner = a.numerator->symbols();
        out.insert(out.end(), inner.begin(), inner.end());
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

absl::StatusOr<int64_t> DimExpr::evaluate(const DimBindings &bindings) const {
  int64_t sum = 0;
  for (const DimTerm &t : terms_) {
    int64_t product = t.coefficient;
    for (const DimAtom &a : t.factors) {
      int64_t v;
      if (a.isSymbol()) {
        auto it = bindings.find(a.symbol);
        if (it == bindings.end())
          return absl::InvalidArgumentError(
              absl::StrCat("dimension symbol '", a.symbol, "' has no value"));
        v = it->second;
      } else {
        absl::StatusOr<int64_t> num = a.numerator->evaluate(bindings);
        if (!num.ok())
          return num.status();
        v = floorDivInt(*num, a.divisor);
      }
      product *= v;
    }
    sum += product;
  }
  return sum;
}

DimExpr DimExpr::substitute(const absl::flat_hash_map<std::string, DimExpr> &map) const {
  if (map.empty())
    return *this;
  // Terms are collected and normalized once: adding them one by one would
  // sort the growing polynomial once per term.
  DimExpr result;
  for (const DimTerm &t : terms_) {
    bool unchanged = std::all_of(t.factors.begin(), t.factors.end(), [&](const DimAtom &a) {
      return a.isSymbol() && !map.contains(a.symbol);
    });
    if (unchanged) {
      result.terms_.push_back(t);
      continue;
    }
    DimExpr product(t.coefficient);
    for (const DimAtom &a : t.factors) {
      if (a.isSymbol()) {
        auto it = map.find(a.symbol);
        product = product * (it == map.end() ? DimExpr::symbol(a.symbol) : it->second);
      } else {
        product = product * floorDiv(a.numerator->substitute(map), a.divisor);
      }
    }
    result.terms_.insert(result.terms_.end(), product.terms_.begin(), product.terms_.end());
  }
  result.normalize();
  return result;
}

std::string DimExpr::str() const {
  if (terms_.empty())
    return "0";
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const DimTerm &t = terms_[i];
    int64_t c = t.coefficient;
    if (i > 0) {
      out += c < 0 ? " - " : " + ";
      c = c < 0 ? -c : c;
    } else if (c < 0 && !t.factors.empty()) {
      out += "-";
      c = -c;
    }
    std::vector<std::string> parts;
    if (t.factors.empty() || c != 1)
      parts.push_back(absl::StrCat(c));
    bool product = parts.size() + t.factors.size() > 1;
    for (const DimAtom &a : t.factors) {
      std::string s = atomStr(a);
      if (product && !a.isSymbol())
        s = absl::StrCat("(", s, ")");
      parts.push_back(std::move(s));
    }
    out += absl::StrJoin(parts, "*");
  }
  return out;
}

DimExpr dimProduct(const std::vector<DimExpr> &dims) {
  DimExpr p(1);
  for (const DimExpr &d : dims)
    p = p * d;
  return p;
}

} // namespace xs
