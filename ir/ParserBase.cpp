#include "ir/ParserBase.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace xs {

namespace {

// Coefficients of a dim are int64; keeping every intermediate below 2^62
// leaves room for the sums and products that DimExpr and the constraint store
// compute from them, so no text can make them overflow.
constexpr double kCoefficientLimit = 4.0e18;
// Products of polynomials grow fast; beyond these a dim is not a tensor size
// anyone writes, and refusing it keeps the parser's time and memory bounded.
constexpr size_t kMaxTerms = 256;
constexpr size_t kMaxDegree = 32;

double magnitude(const DimExpr &e) {
  double sum = 0;
  for (const DimTerm &t : e.terms())
    sum += std::fabs(static_cast<double>(t.coefficient));
  return sum;
}

size_t degree(const DimExpr &e) {
  size_t d = 0;
  for (const DimTerm &t : e.terms())
    d = std::max(d, t.factors.size());
  return d;
}

int64_t maxDivisor(const DimExpr &e) {
  int64_t m = 1;
  for (const DimTerm &t : e.terms())
    for (const DimAtom &a : t.factors)
      if (!a.isSymbol())
        m = std::max({m, a.divisor, maxDivisor(*a.numerator)});
  return m;
}

std::string elementTypeList() {
  std::vector<std::string> names;
  for (ElementType t : kAllElementTypes)
    names.emplace_back(elementTypeName(t));
  return absl::StrJoin(names, ", ");
}

} // namespace

class ParserBase::DepthGuard {
public:
  explicit DepthGuard(int &depth) : depth_(depth) { ++depth_; }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard &) = delete;
  DepthGuard &operator=(const DepthGuard &) = delete;

private:
  int &depth_;
};

ParserBase::ParserBase(std::string_view text, std::shared_ptr<const std::string> fileName)
    : lexer_(text), fileName_(std::move(fileName)) {}

const Token &ParserBase::lookahead(size_t n) {
  while (buffered_.size() <= n)
    buffered_.push_back(lexer_.next());
  return buffered_[n];
}

Token ParserBase::consume() {
  Token t = lookahead(0);
  buffered_.pop_front();
  return t;
}

bool ParserBase::consumeIf(TokenKind kind) {
  if (!at(kind))
    return false;
  consume();
  return true;
}

absl::Status ParserBase::unexpected(std::string_view expected) {
  const Token &t = tok();
  if (t.kind == TokenKind::Error)
    return errorAtToken(t, strCat(t.error, ": ", t.describe()));
  return errorAtToken(t, strCat("expected ", expected, ", got ", t.describe()));
}

absl::StatusOr<Token> ParserBase::expect(TokenKind kind, std::string_view what) {
  if (!at(kind))
    return unexpected(what);
  return consume();
}

absl::Status ParserBase::enterNesting(const Token &at) {
  if (depth_ > kMaxNesting)
    return errorAtToken(at, strCat("nesting is deeper than ", kMaxNesting, " levels"));
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ParserBase::parseIntegerLiteral(bool allowNegative) {
  bool negative = false;
  if (allowNegative && at(TokenKind::Minus)) {
    consume();
    negative = true;
  }
  if (!at(TokenKind::Integer))
    return unexpected("an integer");
  Token t = consume();
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), magnitude);
  const uint64_t limit =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1u : 0u);
  if (ec != std::errc() || ptr != t.text.data() + t.text.size() || magnitude > limit)
    return errorAtToken(
        t, strCat("integer ", negative ? "-" : "", t.text, " does not fit in 64 bits"));
  if (!negative)
    return static_cast<int64_t>(magnitude);
  // 0 - magnitude in unsigned arithmetic is the two's complement; converting
  // back is well defined (C++20) and yields INT64_MIN for 2^63.
  return static_cast<int64_t>(uint64_t{0} - magnitude);
}

absl::StatusOr<std::pair<bool, double>> ParserBase::parseLiteralNumber(int64_t &intValue) {
  bool negative = false;
  if (at(TokenKind::Minus) && (lookahead(1).kind == TokenKind::Integer)) {
    XS_ASSIGN_OR_RETURN(intValue, parseIntegerLiteral(/*allowNegative=*/true));
    return std::make_pair(true, static_cast<double>(intValue));
  }
  if (at(TokenKind::Minus)) {
    consume();
    negative = true;
  }
  const Token &t = tok();
  if (t.kind == TokenKind::Integer) {
    XS_ASSIGN_OR_RETURN(intValue, parseIntegerLiteral(/*allowNegative=*/false));
    return std::make_pair(true, static_cast<double>(intValue));
  }
  if (t.kind == TokenKind::Float) {
    Token f = consume();
    double v = 0;
    auto [ptr, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), v);
    if (ec != std::errc() || ptr != f.text.data() + f.text.size())
      return errorAtToken(f, strCat("float ", f.text, " is out of the range of f64"));
    return std::make_pair(false, negative ? -v : v);
  }
  if (t.kind == TokenKind::Identifier && (t.text == "nan" || t.text == "inf")) {
    bool isNan = t.text == "nan";
    consume();
    double inf = std::numeric_limits<double>::infinity();
    return std::make_pair(false, isNan ? std::numeric_limits<double>::quiet_NaN()
                                       : (negative ? -inf : inf));
  }
  return unexpected("a number");
}

absl::StatusOr<double> ParserBase::parseFloatLiteral() {
  int64_t ignored = 0;
  XS_ASSIGN_OR_RETURN(auto number, parseLiteralNumber(ignored));
  return number.second;
}

absl::StatusOr<DimExpr> ParserBase::parseDim() {
  DepthGuard guard(depth_);
  XS_RETURN_IF_ERROR(enterNesting(tok()));
  XS_ASSIGN_OR_RETURN(DimExpr lhs, parseTerm());
  while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
    Token op = consume();
    XS_ASSIGN_OR_RETURN(DimExpr rhs, parseTerm());
    if (magnitude(lhs) + magnitude(rhs) > kCoefficientLimit)
      return errorAtToken(op, "dimension expression overflows: keep coefficients below 2^62");
    if (lhs.terms().size() + rhs.terms().size() > kMaxTerms)
      return errorAtToken(op, strCat("dimension expression has more than ", kMaxTerms, " terms"));
    lhs = op.kind == TokenKind::Plus ? lhs + rhs : lhs - rhs;
  }
  return lhs;
}

// A leading '-' negates the whole term, so `-S/2` reads back as -(S/2), the
// way DimExpr::str() prints a negative floor-division term.
absl::StatusOr<DimExpr> ParserBase::parseTerm() {
  if (at(TokenKind::Minus)) {
    DepthGuard guard(depth_);
    XS_RETURN_IF_ERROR(enterNesting(consume()));
    XS_ASSIGN_OR_RETURN(DimExpr negated, parseTerm());
    return -negated;
  }
  XS_ASSIGN_OR_RETURN(DimExpr lhs, parseFactor());
  while (at(TokenKind::Star) || at(TokenKind::Slash)) {
    Token op = consume();
    Token rhsStart = tok();
    XS_ASSIGN_OR_RETURN(DimExpr rhs, parseFactor());
    if (op.kind == TokenKind::Star) {
      if (magnitude(lhs) * magnitude(rhs) > kCoefficientLimit)
        return errorAtToken(op, "dimension expression overflows: keep coefficients below 2^62");
      if (lhs.terms().size() * rhs.terms().size() > kMaxTerms ||
          degree(lhs) + degree(rhs) > kMaxDegree)
        return errorAtToken(op, "dimension expression is too large to expand");
      lhs = lhs * rhs;
      continue;
    }
    std::optional<int64_t> divisor = rhs.constantValue();
    if (!divisor || *divisor <= 0)
      return errorAtToken(rhsStart, strCat("a dimension can only be divided by a positive integer "
                                           "constant, not '",
                                           rhs.str(), "'"));
    if (static_cast<double>(maxDivisor(lhs)) * static_cast<double>(*divisor) > kCoefficientLimit ||
        magnitude(lhs) + static_cast<double>(*divisor) > kCoefficientLimit)
      return errorAtToken(rhsStart, "dimension expression overflows: divisor too large");
    lhs = DimExpr::floorDiv(lhs, *divisor);
  }
  return lhs;
}

absl::StatusOr<DimExpr> ParserBase::parseFactor() {
  DepthGuard guard(depth_);
  XS_RETURN_IF_ERROR(enterNesting(tok()));
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Minus: {
    consume();
    XS_ASSIGN_OR_RETURN(DimExpr negated, parseFactor());
    return -negated;
  }
  case TokenKind::Integer: {
    XS_ASSIGN_OR_RETURN(int64_t v, parseIntegerLiteral(/*allowNegative=*/false));
    return DimExpr(v);
  }
  case TokenKind::Identifier: {
    Token name = consume();
    if (symbolSink_)
      symbolSink_->emplace_back(name.text);
    return DimExpr::symbol(name.text);
  }
  case TokenKind::LParen: {
    consume();
    XS_ASSIGN_OR_RETURN(DimExpr inner, parseDim());
    XS_RETURN_IF_ERROR(expect(TokenKind::RParen, "')'").status());
    return inner;
  }
  default:
    return unexpected("a dimension (an integer, a symbol or '(')");
  }
}

absl::StatusOr<DimExpr> ParserBase::parseStandaloneDim() {
  XS_ASSIGN_OR_RETURN(DimExpr d, parseDim());
  if (!at(TokenKind::Eof))
    return unexpected("the end of the dimension expression");
  return d;
}

absl::StatusOr<TensorType> ParserBase::parseType() {
  const Token &t = tok();
  if (t.kind != TokenKind::Identifier)
    return unexpected("a type such as f32[N, 768]");
  std::optional<ElementType> elementType = parseElementType(t.text);
  if (!elementType)
    return errorAtToken(
        t, strCat("unknown element type '", t.text, "'; expected one of ", elementTypeList()));
  consume();
  XS_RETURN_IF_ERROR(expect(TokenKind::LBracket, "'[' after the element type").status());
  std::vector<DimExpr> shape;
  // The element count multiplies the dims out: bound its expansion as one
  // dim's is bounded, or every check on the type would pay for it.
  double countTerms = 1;
  size_t countDegree = 0;
  if (!at(TokenKind::RBracket)) {
    while (true) {
      Token start = tok();
      XS_ASSIGN_OR_RETURN(DimExpr d, parseDim());
      if (std::optional<int64_t> c = d.constantValue(); c && *c < 0)
        return errorAtToken(start, strCat("a dimension must not be negative, got ", *c));
      countTerms *= static_cast<double>(std::max<size_t>(d.terms().size(), 1));
      countDegree += degree(d);
      if (countTerms > static_cast<double>(kMaxTerms) || countDegree > kMaxDegree)
        return errorAtToken(start, "the element count of this shape is too large to expand");
      shape.push_back(std::move(d));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  XS_RETURN_IF_ERROR(expect(TokenKind::RBracket, "',' or ']' in the shape").status());
  return TensorType(*elementType, std::move(shape));
}

absl::StatusOr<LiteralValue> ParserBase::parseLiteral() {
  LiteralValue out;
  if (!atKeyword("dense")) {
    int64_t intValue = 0;
    XS_ASSIGN_OR_RETURN(auto number, parseLiteralNumber(intValue));
    out.isInteger = number.first;
    if (number.first)
      out.ints.push_back(intValue);
    else
      out.floats.push_back(number.second);
    return out;
  }
  consume();
  XS_RETURN_IF_ERROR(expect(TokenKind::Less, "'<' after 'dense'").status());
  if (!at(TokenKind::LBracket))
    return unexpected("'[' to start the elements of dense<...>");
  std::vector<bool> levelSeen;
  int64_t leafLevel = -1;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool anyFloat = false;
  XS_RETURN_IF_ERROR(parseNestedList(0, out, levelSeen, leafLevel, ints, floats, anyFloat));
  XS_RETURN_IF_ERROR(expect(TokenKind::Greater, "'>' to end dense<...>").status());
  out.isInteger = !anyFloat;
  if (anyFloat)
    out.floats = std::move(floats);
  else
    out.ints = std::move(ints);
  return out;
}

absl::Status ParserBase::parseNestedList(size_t level, LiteralValue &out,
                                         std::vector<bool> &levelSeen, int64_t &leafLevel,
                                         std::vector<int64_t> &ints, std::vector<double> &floats,
                                         bool &anyFloat) {
  DepthGuard guard(depth_);
  XS_RETURN_IF_ERROR(enterNesting(tok()));
  XS_ASSIGN_OR_RETURN(Token open, expect(TokenKind::LBracket, "'['"));
  int64_t count = 0;
  bool holdsLists = at(TokenKind::LBracket);
  if (!at(TokenKind::RBracket)) {
    while (true) {
      if (holdsLists) {
        if (!at(TokenKind::LBracket))
          return unexpected("'[' (elements of a nested list are all lists)");
        XS_RETURN_IF_ERROR(
            parseNestedList(level + 1, out, levelSeen, leafLevel, ints, floats, anyFloat));
      } else {
        int64_t intValue = 0;
        XS_ASSIGN_OR_RETURN(auto number, parseLiteralNumber(intValue));
        anyFloat |= !number.first;
        ints.push_back(intValue);
        floats.push_back(number.second);
      }
      ++count;
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  XS_RETURN_IF_ERROR(expect(TokenKind::RBracket, "',' or ']' in the list").status());
  if (!holdsLists) {
    int64_t rank = static_cast<int64_t>(level) + 1;
    if (leafLevel == -1)
      leafLevel = rank;
    else if (leafLevel != rank)
      return errorAtToken(open, "dense literal is ragged: its lists nest to different depths");
  }
  if (out.shape.size() <= level) {
    out.shape.resize(level + 1, 0);
    levelSeen.resize(level + 1, false);
  }
  if (!levelSeen[level]) {
    levelSeen[level] = true;
    out.shape[level] = count;
  } else if (out.shape[level] != count) {
    return errorAtToken(open, strCat("dense literal is ragged: this list has ", count, " element",
                                     count == 1 ? "" : "s", ", another at the same depth has ",
                                     out.shape[level]));
  }
  return absl::OkStatus();
}

} // namespace xs
