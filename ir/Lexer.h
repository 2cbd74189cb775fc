#ifndef XSTITCH_IR_LEXER_H
#define XSTITCH_IR_LEXER_H

// Tokens of the text format (docs/ir.md, "Lexical structure"). Numbers are
// kept as text and converted by the parser, which knows whether a literal is
// negated and which range it must fit. A '-' is always its own token so that
// `S-1` and `S - 1` lex alike.

#include <string>
#include <string_view>

namespace xs {

enum class TokenKind {
  Eof,
  Error,      // text is the offending character(s), error the reason
  Identifier, // func, f32, B, add, nan, inf, ...
  ValueName,  // %x (text without '%')
  FuncName,   // @f (text without '@')
  Integer,    // 768 (no sign)
  Float,      // 1.0, 1e-5 (no sign)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Equal,
  EqualEqual,
  Arrow,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
};

/// A readable name for messages: "'('", "an integer", "end of file".
std::string_view tokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Eof;
  std::string_view text;       // a view into the lexed buffer
  const char *error = nullptr; // for Error tokens: what is wrong
  int line = 1;
  int col = 1;
  /// How the token reads in a message: `'foo'` or "end of file".
  std::string describe() const;
};

class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {}
  /// The next token; after Eof or Error, the same token again.
  Token next();

private:
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void advance();
  void skipWhitespaceAndComments();
  Token make(TokenKind kind, size_t start, int line, int col) const;
  Token lexNumber(size_t start, int line, int col);

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  bool stopped_ = false;
  Token last_;
};

} // namespace xs

#endif // XSTITCH_IR_LEXER_H
