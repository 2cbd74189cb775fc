#ifndef XSTITCH_IR_DIMEXPR_H
#define XSTITCH_IR_DIMEXPR_H

// Dimension expressions: the sizes in a shape. A DimExpr is kept in one
// canonical form, a polynomial with integer coefficients whose variables are
// atoms, an atom being a named symbol (`B`) or the floor division of a
// canonical expression by a positive constant (`(S+1)/2`). Two expressions
// that are equal as polynomials compare equal with ==, so `B*S`, `S*B` and
// `S*B + 0` are the same value.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace xs {

class DimExpr;

/// Concrete values of symbols, e.g. {"B": 32, "S": 128}.
using DimBindings = absl::flat_hash_map<std::string, int64_t>;

/// A variable of the polynomial: a symbol or floor(numerator / divisor).
struct DimAtom {
  std::string symbol;                       // set for a symbol atom
  std::shared_ptr<const DimExpr> numerator; // set for a floor-division atom
  int64_t divisor = 0;                      // > 1 for a floor-division atom

  bool isSymbol() const { return numerator == nullptr; }
  friend bool operator==(const DimAtom &a, const DimAtom &b);
  friend bool operator<(const DimAtom &a, const DimAtom &b);
};

/// One monomial: coefficient times a product of atoms (sorted, may repeat).
struct DimTerm {
  int64_t coefficient = 0;
  std::vector<DimAtom> factors;
};

bool operator==(const DimTerm &a, const DimTerm &b);

class DimExpr {
public:
  /// The constant 0.
  DimExpr() = default;
  /*implicit*/ DimExpr(int64_t constant);
  static DimExpr symbol(std::string_view name);
  /// floor(e / divisor) for divisor > 0; folded when e is a constant or every
  /// coefficient is a multiple of divisor.
  static DimExpr floorDiv(const DimExpr &e, int64_t divisor);
  /// ceil(e / divisor) = floor((e + divisor - 1) / divisor).
  static DimExpr ceilDiv(const DimExpr &e, int64_t divisor);
  /// e / divisor where every term of e is a multiple of `divisor`, a single
  /// non-zero term (4*H*W / H*W = 4, (4*B*S + 8*B) / 4*B = S + 2); nullopt
  /// otherwise (the quotient may still exist for some values).
  static std::optional<DimExpr> exactDiv(const DimExpr &e, const DimExpr &divisor);

  friend DimExpr operator+(const DimExpr &a, const DimExpr &b);
  friend DimExpr operator-(const DimExpr &a, const DimExpr &b);
  friend DimExpr operator*(const DimExpr &a, const DimExpr &b);
  DimExpr operator-() const;

  bool isConstant() const;
  /// The value when the expression is a constant.
  std::optional<int64_t> constantValue() const;
  /// True when the expression is exactly one symbol with coefficient 1.
  bool isSymbol() const;
  /// The symbol's name; only valid when isSymbol().
  const std::string &symbolName() const;
  /// Every symbol the expression mentions, sorted, without duplicates.
  std::vector<std::string> symbols() const;
  /// The canonical terms, constant term (no factors) last.
  const std::vector<DimTerm> &terms() const { return terms_; }

  /// Evaluates with concrete symbol values; an error names the unbound symbol.
  absl::StatusOr<int64_t> evaluate(const DimBindings &bindings) const;
  /// Replaces symbols by expressions (symbols not in the map stay).
  DimExpr substitute(const absl::flat_hash_map<std::string, DimExpr> &map) const;

  /// The text form, parseable by the IR parser: `B*S`, `S - 1`, `(S + 1)/2`.
  std::string str() const;

  friend bool operator==(const DimExpr &a, const DimExpr &b) { return a.terms_ == b.terms_; }
  friend bool operator!=(const DimExpr &a, const DimExpr &b) { return !(a == b); }
  /// A total order (for sorting and as a map key); no arithmetic meaning.
  friend bool operator<(const DimExpr &a, const DimExpr &b);

  template <typename H> friend H AbslHashValue(H h, const DimExpr &e) {
    return H::combine(std::move(h), e.str());
  }

private:
  void normalize();
  std::vector<DimTerm> terms_;
};

/// Product of a list of dims (1 for an empty list).
DimExpr dimProduct(const std::vector<DimExpr> &dims);

} // namespace xs

#endif // XSTITCH_IR_DIMEXPR_H
