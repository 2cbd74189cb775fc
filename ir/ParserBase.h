#ifndef XSTITCH_IR_PARSERBASE_H
#define XSTITCH_IR_PARSERBASE_H

// The expression level of the text-format parser: a token stream with
// lookahead, located errors, and the grammar of numbers, dims, types and
// literals. Parser.cpp builds functions and ops on top of it. Internal to the
// parser; other code uses Parser.h.

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/Attribute.h"
#include "ir/Diagnostics.h"
#include "ir/DimExpr.h"
#include "ir/Lexer.h"
#include "ir/Type.h"

namespace xs {

class ParserBase {
public:
  ParserBase(std::string_view text, std::shared_ptr<const std::string> fileName);

  /// Parses one dim and requires the end of input (parseDimExpr).
  absl::StatusOr<DimExpr> parseStandaloneDim();

protected:
  /// Nesting (parentheses, unary minus, nested lists) deeper than this is an
  /// error rather than a risk of exhausting the stack.
  static constexpr int kMaxNesting = 100;

  const Token &tok() { return lookahead(0); }
  const Token &lookahead(size_t n);
  Token consume();
  bool at(TokenKind kind) { return tok().kind == kind; }
  bool atKeyword(std::string_view word) {
    return tok().kind == TokenKind::Identifier && tok().text == word;
  }
  bool consumeIf(TokenKind kind);
  /// Consumes a token of `kind` or fails with "expected <what>, got <token>".
  absl::StatusOr<Token> expect(TokenKind kind, std::string_view what);
  /// The error for an unexpected current token (a lexer error reads as such).
  absl::Status unexpected(std::string_view expected);

  Location locOf(const Token &t) const { return Location{fileName_, t.line, t.col}; }
  absl::Status errorAtToken(const Token &t, std::string_view msg) const {
    return errorAt(locOf(t), msg);
  }

  /// An integer literal, optionally preceded by '-', checked against int64.
  absl::StatusOr<int64_t> parseIntegerLiteral(bool allowNegative);
  /// A float: an integer or float literal, `nan`, `inf`, each maybe negated.
  absl::StatusOr<double> parseFloatLiteral();
  /// `dim ::= term (('+' | '-') term)*` with overflow and size limits.
  absl::StatusOr<DimExpr> parseDim();
  /// `f32[B, 768]`.
  absl::StatusOr<TensorType> parseType();
  /// A number or `dense<[...]>`.
  absl::StatusOr<LiteralValue> parseLiteral();

  /// While set, every symbol read by parseDim is appended here, in text order.
  std::vector<std::string> *symbolSink_ = nullptr;

private:
  class DepthGuard;
  absl::Status enterNesting(const Token &at);
  absl::StatusOr<DimExpr> parseTerm();
  absl::StatusOr<DimExpr> parseFactor();
  absl::Status parseNestedList(size_t level, LiteralValue &out, std::vector<bool> &levelSeen,
                               int64_t &leafLevel, std::vector<int64_t> &ints,
                               std::vector<double> &floats, bool &anyFloat);
  absl::StatusOr<std::pair<bool, double>> parseLiteralNumber(int64_t &intValue);

  Lexer lexer_;
  std::deque<Token> buffered_;
  std::shared_ptr<const std::string> fileName_;
  int depth_ = 0;
};

} // namespace xs

#endif // XSTITCH_IR_PARSERBASE_H
