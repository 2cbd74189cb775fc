#include "ir/Lexer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isLetter(c) || isDigit(c); }
bool isValueNameChar(char c) { return isIdentChar(c) || c == '.'; }

} // namespace

std::string_view tokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "an invalid token";
  case TokenKind::Identifier:
    return "an identifier";
  case TokenKind::ValueName:
    return "a value name";
  case TokenKind::FuncName:
    return "a function name";
  case TokenKind::Integer:
    return "an integer";
  case TokenKind::Float:
    return "a float";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::EqualEqual:
    return "'=='";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::LessEqual:
    return "'<='";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::GreaterEqual:
    return "'>='";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  }
  return "a token";
}

std::string Token::describe() const {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::ValueName:
    return strCat("'%", text, "'");
  case TokenKind::FuncName:
    return strCat("'@", text, "'");
  default:
    break;
  }
  std::string out = "'";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f)
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", u));
    else
      out.push_back(c);
  }
  out += "'";
  return out;
}

void Lexer::advance() {
  if (pos_ >= text_.size())
    return;
  if (text_[pos_] == '\n') {
    ++line_;
    col_ = 1;
  } else {
    ++col_;
  }
  ++pos_;
}

void Lexer::skipWhitespaceAndComments() {
  while (pos_ < text_.size()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < text_.size() && peek() != '\n')
        advance();
    } else {
      return;
    }
  }
}

Token Lexer::make(TokenKind kind, size_t start, int line, int col) const {
  Token t;
  t.kind = kind;
  t.text = text_.substr(start, pos_ - start);
  t.line = line;
  t.col = col;
  return t;
}

Token Lexer::lexNumber(size_t start, int line, int col) {
  bool isFloat = false;
  while (isDigit(peek()))
    advance();
  if (peek() == '.') {
    isFloat = true;
    advance();
    if (!isDigit(peek())) {
      Token t = make(TokenKind::Error, start, line, col);
      t.error = "expected a digit after '.' in a number";
      return t;
    }
    while (isDigit(peek()))
      advance();
  }
  if (peek() == 'e' || peek() == 'E') {
    isFloat = true;
    advance();
    if (peek() == '+' || peek() == '-')
      advance();
    if (!isDigit(peek())) {
      Token t = make(TokenKind::Error, start, line, col);
      t.error = "expected digits in the exponent of a number";
      return t;
    }
    while (isDigit(peek()))
      advance();
  }
  if (isLetter(peek())) {
    advance();
    Token t = make(TokenKind::Error, start, line, col);
    t.error = "a number must not run into a letter";
    return t;
  }
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, start, line, col);
}

Token Lexer::next() {
  if (stopped_)
    return last_;
  skipWhitespaceAndComments();
  size_t start = pos_;
  int line = line_, col = col_;
  auto finish = [&](Token t) {
    if (t.kind == TokenKind::Eof || t.kind == TokenKind::Error) {
      stopped_ = true;
      last_ = t;
    }
    return t;
  };
  if (pos_ >= text_.size())
    return finish(make(TokenKind::Eof, start, line, col));

  char c = peek();
  if (isLetter(c)) {
    while (isIdentChar(peek()))
      advance();
    return make(TokenKind::Identifier, start, line, col);
  }
  if (isDigit(c))
    return finish(lexNumber(start, line, col));
  if (c == '%' || c == '@') {
    advance();
    bool value = c == '%';
    size_t nameStart = pos_;
    while (value ? isValueNameChar(peek()) : isIdentChar(peek()))
      advance();
    if (pos_ == nameStart) {
      if (value) // `S % 8` in a where clause
        return make(TokenKind::Percent, start, line, col);
      Token t = make(TokenKind::Error, start, line, col);
      t.error = "expected a function name after '@'";
      return finish(t);
    }
    Token t = make(value ? TokenKind::ValueName : TokenKind::FuncName, start, line, col);
    t.text = text_.substr(nameStart, pos_ - nameStart);
    return t;
  }

  advance();
  auto two = [&](char second, TokenKind pair, TokenKind single) {
    if (peek() == second) {
      advance();
      return make(pair, start, line, col);
    }
    return make(single, start, line, col);
  };
  switch (c) {
  case '(':
    return make(TokenKind::LParen, start, line, col);
  case ')':
    return make(TokenKind::RParen, start, line, col);
  case '[':
    return make(TokenKind::LBracket, start, line, col);
  case ']':
    return make(TokenKind::RBracket, start, line, col);
  case '{':
    return make(TokenKind::LBrace, start, line, col);
  case '}':
    return make(TokenKind::RBrace, start, line, col);
  case ',':
    return make(TokenKind::Comma, start, line, col);
  case ':':
    return make(TokenKind::Colon, start, line, col);
  case '+':
    return make(TokenKind::Plus, start, line, col);
  case '*':
    return make(TokenKind::Star, start, line, col);
  case '/':
    return make(TokenKind::Slash, start, line, col);
  case '=':
    return two('=', TokenKind::EqualEqual, TokenKind::Equal);
  case '<':
    return two('=', TokenKind::LessEqual, TokenKind::Less);
  case '>':
    return two('=', TokenKind::GreaterEqual, TokenKind::Greater);
  case '-':
    return two('>', TokenKind::Arrow, TokenKind::Minus);
  default:
    break;
  }
  Token t = make(TokenKind::Error, start, line, col);
  t.error = "unexpected character";
  return finish(t);
}

} // namespace xs
