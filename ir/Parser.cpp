#include "ir/Parser.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/HostSymbols.h"
#include "ir/ParserBase.h"

namespace xs {

namespace {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// A dense literal's nesting ends at its first empty list, so `dense<[[]]>`
/// reads as shape [1, 0] whatever dims follow the zero in the result type
/// (the printer writes an i64[1, 0, 3] constant that way). Where the type's
/// shape starts with the literal's, the literal takes the type's shape.
void completeEmptyLiteralShape(AttrDict &attrs, const TensorType &type) {
  auto it = attrs.find("value");
  if (it == attrs.end() || it->second.kind() != AttrKind::Literal)
    return;
  const LiteralValue &literal = it->second.getLiteral();
  std::optional<std::vector<int64_t>> shape = type.staticShape();
  if (literal.size() != 0 || literal.shape.empty() || literal.shape.back() != 0 || !shape ||
      shape->size() <= literal.shape.size() ||
      !std::equal(literal.shape.begin(), literal.shape.end(), shape->begin()))
    return;
  LiteralValue completed = literal;
  completed.shape = std::move(*shape);
  it->second = Attribute::literal(std::move(completed));
}

/// The mnemonic closest to `name` when it is a plausible typo of it.
std::optional<std::string_view> closestMnemonic(std::string_view name) {
  if (name.size() > 64)
    return std::nullopt;
  std::optional<std::string_view> best;
  size_t bestDistance = std::max<size_t>(1, std::min<size_t>(3, name.size() / 3)) + 1;
  for (const OpInfo &info : allOpInfos()) {
    size_t d = editDistance(name, info.mnemonic);
    if (d < bestDistance) {
      bestDistance = d;
      best = info.mnemonic;
    }
  }
  return best;
}

std::string attrNames(const OpInfo &info) {
  std::vector<std::string> names;
  for (const AttrSpec &spec : info.attrs)
    names.emplace_back(spec.name);
  return names.empty() ? std::string("no attributes")
                       : strCat("attributes ", absl::StrJoin(names, ", "));
}

std::string operandCountText(const OpInfo &info) {
  if (info.maxOperands < 0)
    return strCat("at least ", info.minOperands);
  if (info.minOperands == info.maxOperands)
    return strCat(info.minOperands);
  return strCat(info.minOperands, " to ", info.maxOperands);
}

class ModuleParser : public ParserBase {
public:
  ModuleParser(std::string_view text, std::shared_ptr<const std::string> fileName)
      : ParserBase(text, fileName), fileName_(std::move(fileName)) {}

  absl::StatusOr<std::unique_ptr<Module>> parse();

private:
  absl::Status parseFunction(Module &module);
  absl::Status parseParams(Function &function);
  absl::Status parseResults(Function &function);
  absl::Status parseFact(Function &function);
  absl::Status parseHostSymbols(Function &function);
  absl::Status parseBody(Function &function);
  absl::Status parseOp(Function &function);
  /// `hostSymbols`: the return of a host_symbols computation.
  absl::Status parseReturn(Function &function, const Token &returnToken, bool hostSymbols = false);
  absl::StatusOr<Value *> parseOperand(Function &function);
  absl::Status parseAttrs(const OpInfo &info, AttrDict &attrs);
  absl::StatusOr<Attribute> parseAttrValue(const OpInfo &info, const AttrSpec &spec);
  absl::Status checkFactStatus(absl::Status status, const Token &at);

  std::shared_ptr<const std::string> fileName_;
};

absl::StatusOr<std::unique_ptr<Module>> ModuleParser::parse() {
  auto module = std::make_unique<Module>(fileName_);
  while (!at(TokenKind::Eof)) {
    if (!atKeyword("func"))
      return unexpected("'func' to start a function");
    XS_RETURN_IF_ERROR(parseFunction(*module));
  }
  return module;
}

absl::Status ModuleParser::parseFunction(Module &module) {
  consume(); // func
  XS_ASSIGN_OR_RETURN(Token name, expect(TokenKind::FuncName, "a function name such as @main"));
  if (module.lookup(name.text))
    return errorAtToken(name, strCat("function '@", name.text, "' is already defined"));
  Function &function = *module.addFunction(std::string(name.text), locOf(name));

  XS_RETURN_IF_ERROR(expect(TokenKind::LParen, "'(' to start the parameters").status());
  XS_RETURN_IF_ERROR(parseParams(function));
  XS_RETURN_IF_ERROR(expect(TokenKind::Arrow, "'->' and the results").status());
  XS_RETURN_IF_ERROR(expect(TokenKind::LParen, "'(' to start the results").status());
  XS_RETURN_IF_ERROR(parseResults(function));

  if (atKeyword("host_symbols"))
    XS_RETURN_IF_ERROR(parseHostSymbols(function));
  if (atKeyword("where")) {
    consume();
    while (true) {
      XS_RETURN_IF_ERROR(parseFact(function));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  XS_RETURN_IF_ERROR(expect(TokenKind::LBrace, "'{' to start the function body").status());
  return parseBody(function);
}

absl::Status ModuleParser::parseParams(Function &function) {
  std::vector<std::string> symbols;
  if (!at(TokenKind::RParen)) {
    while (true) {
      XS_ASSIGN_OR_RETURN(Token name, expect(TokenKind::ValueName, "a parameter such as %x"));
      if (function.nameInUse(name.text))
        return errorAtToken(name, strCat("redefinition of value '%", name.text, "'"));
      if (!at(TokenKind::Colon))
        return errorAtToken(tok(), strCat("parameter '%", name.text, "' needs a type: write %",
                                          name.text, ": f32[N]"));
      consume();
      symbolSink_ = &symbols;
      absl::StatusOr<TensorType> type = parseType();
      symbolSink_ = nullptr;
      if (!type.ok())
        return type.status();
      function.addParam(std::string(name.text), std::move(*type), locOf(name));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  XS_RETURN_IF_ERROR(expect(TokenKind::RParen, "',' or ')' after a parameter").status());
  // The first spelling of a symbol names its equality class (Constraints.h).
  for (const std::string &symbol : symbols)
    function.constraints().noteSymbol(symbol);
  return absl::OkStatus();
}

absl::Status ModuleParser::parseResults(Function &function) {
  absl::flat_hash_set<std::string> names;
  if (!at(TokenKind::RParen)) {
    while (true) {
      XS_ASSIGN_OR_RETURN(Token name, expect(TokenKind::Identifier, "a result name such as y"));
      if (!names.insert(std::string(name.text)).second)
        return errorAtToken(name, strCat("duplicate result name '", name.text, "'"));
      FunctionResult result;
      result.name = std::string(name.text);
      result.loc = locOf(name);
      if (consumeIf(TokenKind::Colon)) {
        XS_ASSIGN_OR_RETURN(result.declaredType, parseType());
      }
      function.results().push_back(std::move(result));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  return expect(TokenKind::RParen, "',' or ')' after a result").status();
}

// host_symbols ::= 'host_symbols' symbol (',' symbol)* '{' op* 'return' values '}'
absl::Status ModuleParser::parseHostSymbols(Function &function) {
  consume(); // host_symbols
  HostSymbols &hostSymbols = function.getOrCreateHostSymbols();
  Function &computation = *hostSymbols.computation;
  while (true) {
    XS_ASSIGN_OR_RETURN(Token symbol, expect(TokenKind::Identifier, "a symbol such as R0"));
    hostSymbols.symbols.emplace_back(symbol.text);
    function.constraints().noteHostSymbol(std::string(symbol.text));
    FunctionResult result;
    result.name = std::string(symbol.text);
    result.loc = locOf(symbol);
    computation.results().push_back(std::move(result));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  XS_RETURN_IF_ERROR(
      expect(TokenKind::LBrace, "'{' to start the computation of the host symbols").status());
  while (!atKeyword("return")) {
    if (!at(TokenKind::ValueName))
      return unexpected("an op such as '%n = dim_value {dims = [S]} : i64[]' or 'return' in "
                        "host_symbols");
    Token opStart = tok();
    XS_RETURN_IF_ERROR(parseOp(computation));
    if (!computation.ops().back()->type().known())
      return errorAtToken(opStart, "an op in host_symbols needs its result type, e.g. ': i64[]'");
  }
  return parseReturn(computation, consume(), /*hostSymbols=*/true);
}

absl::Status ModuleParser::checkFactStatus(absl::Status status, const Token &at) {
  if (status.ok())
    return status;
  return errorAtToken(at, strCat("contradictory fact: ", status.message()));
}

// fact ::= dim '==' dim | dim '%' integer '==' '0'
//        | integer '<=' symbol ('<=' integer)? | symbol '>=' integer | symbol '<=' integer
//        | symbol '==' 'broadcast' '(' dim ',' dim ')'
absl::Status ModuleParser::parseFact(Function &function) {
  Token start = tok();
  ConstraintStore &store = function.constraints();
  XS_ASSIGN_OR_RETURN(DimExpr lhs, parseDim());
  // `S %8` lexes as the value name `%8`: read it as '%' and the divisor.
  if (at(TokenKind::ValueName) &&
      std::all_of(tok().text.begin(), tok().text.end(), absl::ascii_isdigit)) {
    Token fused = consume();
    Token divisorToken = fused;
    divisorToken.kind = TokenKind::Integer;
    divisorToken.col += 1;
    uint64_t divisor = 0;
    for (char c : fused.text) {
      divisor = divisor * 10 + static_cast<uint64_t>(c - '0');
      if (divisor > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return errorAtToken(divisorToken, "the divisor does not fit in 64 bits");
    }
    if (divisor == 0)
      return errorAtToken(divisorToken, "a divisibility fact needs a positive divisor");
    XS_RETURN_IF_ERROR(expect(TokenKind::EqualEqual, "'==' in 'S % 8 == 0'").status());
    Token zero = tok();
    XS_ASSIGN_OR_RETURN(int64_t z, parseIntegerLiteral(false));
    if (z != 0)
      return errorAtToken(zero, "a divisibility fact reads 'S % 8 == 0'");
    return checkFactStatus(store.addDivisible(lhs, static_cast<int64_t>(divisor)), start);
  }
  switch (tok().kind) {
  case TokenKind::EqualEqual: {
    consume();
    if (atKeyword("broadcast") && lookahead(1).kind == TokenKind::LParen) {
      if (!lhs.isSymbol())
        return errorAtToken(start, "a broadcast fact reads 'D == broadcast(N, M)' with D a symbol");
      consume();
      consume();
      XS_ASSIGN_OR_RETURN(DimExpr a, parseDim());
      XS_RETURN_IF_ERROR(expect(TokenKind::Comma, "',' in 'D == broadcast(N, M)'").status());
      XS_ASSIGN_OR_RETURN(DimExpr b, parseDim());
      XS_RETURN_IF_ERROR(expect(TokenKind::RParen, "')' in 'D == broadcast(N, M)'").status());
      return checkFactStatus(store.addBroadcast(lhs.symbolName(), a, b), start);
    }
    XS_ASSIGN_OR_RETURN(DimExpr rhs, parseDim());
    return checkFactStatus(store.addEqual(lhs, rhs), start);
  }
  case TokenKind::Percent: {
    consume();
    Token divisorToken = tok();
    XS_ASSIGN_OR_RETURN(int64_t divisor, parseIntegerLiteral(false));
    if (divisor <= 0)
      return errorAtToken(divisorToken, "a divisibility fact needs a positive divisor");
    XS_RETURN_IF_ERROR(expect(TokenKind::EqualEqual, "'==' in 'S % 8 == 0'").status());
    Token zero = tok();
    XS_ASSIGN_OR_RETURN(int64_t z, parseIntegerLiteral(false));
    if (z != 0)
      return errorAtToken(zero, "a divisibility fact reads 'S % 8 == 0'");
    return checkFactStatus(store.addDivisible(lhs, divisor), start);
  }
  case TokenKind::LessEqual: {
    consume();
    if (lhs.isSymbol()) { // B <= 64
      XS_ASSIGN_OR_RETURN(int64_t hi, parseIntegerLiteral(true));
      return checkFactStatus(store.addRange(lhs.symbolName(), 0, hi), start);
    }
    if (!lhs.isConstant())
      return errorAtToken(start, "a range fact reads '1 <= B <= 64', 'B <= 64' or 'B >= 1'");
    int64_t lo = *lhs.constantValue();
    XS_ASSIGN_OR_RETURN(Token symbol, expect(TokenKind::Identifier, "a symbol in '1 <= B <= 64'"));
    int64_t hi = std::numeric_limits<int64_t>::max();
    if (consumeIf(TokenKind::LessEqual)) {
      XS_ASSIGN_OR_RETURN(hi, parseIntegerLiteral(true));
    }
    return checkFactStatus(store.addRange(std::string(symbol.text), lo, hi), start);
  }
  case TokenKind::GreaterEqual: {
    consume();
    if (!lhs.isSymbol())
      return errorAtToken(start, "a range fact reads '1 <= B <= 64', 'B <= 64' or 'B >= 1'");
    XS_ASSIGN_OR_RETURN(int64_t lo, parseIntegerLiteral(true));
    return checkFactStatus(
        store.addRange(lhs.symbolName(), lo, std::numeric_limits<int64_t>::max()), start);
  }
  default:
    return unexpected("'==', '%', '<=' or '>=' in a where fact");
  }
}

absl::Status ModuleParser::parseBody(Function &function) {
  while (true) {
    if (atKeyword("return"))
      return parseReturn(function, consume());
    if (at(TokenKind::ValueName)) {
      XS_RETURN_IF_ERROR(parseOp(function));
      continue;
    }
    if (at(TokenKind::Eof))
      return errorAtToken(tok(), strCat("function '@", function.name(),
                                        "' is not terminated: expected 'return' and '}'"));
    if (at(TokenKind::RBrace))
      return errorAtToken(tok(),
                          strCat("function '@", function.name(), "' must end with 'return'"));
    return unexpected("an op such as '%y = add %a, %b' or 'return'");
  }
}

absl::Status ModuleParser::parseReturn(Function &function, const Token &returnToken,
                                       bool hostSymbols) {
  std::vector<Value *> values;
  if (at(TokenKind::ValueName)) {
    while (true) {
      XS_ASSIGN_OR_RETURN(Value * v, parseOperand(function));
      values.push_back(v);
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  std::vector<FunctionResult> &results = function.results();
  if (values.size() != results.size()) {
    std::string expected = hostSymbols
                               ? strCat("host_symbols names ", results.size(), " symbol",
                                        results.size() == 1 ? "" : "s")
                               : strCat("function '@", function.name(), "' has ", results.size(),
                                        " result", results.size() == 1 ? "" : "s");
    return errorAtToken(returnToken, strCat("'return' gives ", values.size(), " value",
                                            values.size() == 1 ? "" : "s", " but ", expected));
  }
  for (size_t i = 0; i < values.size(); ++i)
    results[i].value = values[i];
  if (at(TokenKind::Eof))
    return errorAtToken(
        tok(), strCat("function '@", function.name(), "' is not terminated: expected '}'"));
  return expect(TokenKind::RBrace, "'}' after 'return' (it ends the function)").status();
}

absl::StatusOr<Value *> ModuleParser::parseOperand(Function &function) {
  XS_ASSIGN_OR_RETURN(Token name, expect(TokenKind::ValueName, "a value such as %x"));
  Value *v = function.lookup(name.text);
  if (!v)
    return errorAtToken(name, strCat("use of undefined value '%", name.text, "'"));
  return v;
}

absl::Status ModuleParser::parseOp(Function &function) {
  Token result = consume();
  if (function.nameInUse(result.text))
    return errorAtToken(result, strCat("redefinition of value '%", result.text, "'"));
  XS_RETURN_IF_ERROR(expect(TokenKind::Equal, "'=' after the result name").status());
  XS_ASSIGN_OR_RETURN(Token mnemonicToken, expect(TokenKind::Identifier, "an op name"));
  std::optional<OpKind> kind = lookupOpKind(mnemonicToken.text);
  if (!kind) {
    std::string msg = strCat("unknown op '", mnemonicToken.text, "'");
    if (std::optional<std::string_view> near = closestMnemonic(mnemonicToken.text))
      msg += strCat("; did you mean '", *near, "'?");
    return errorAtToken(mnemonicToken, msg);
  }
  const OpInfo &info = opInfo(*kind);

  // An operand is a value not followed by '=' (which would start the next op).
  std::vector<Value *> operands;
  if (at(TokenKind::ValueName) && lookahead(1).kind != TokenKind::Equal) {
    while (true) {
      XS_ASSIGN_OR_RETURN(Value * v, parseOperand(function));
      operands.push_back(v);
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  if (at(TokenKind::Error))
    return unexpected("an operand");
  int count = static_cast<int>(operands.size());
  if (count < info.minOperands || (info.maxOperands >= 0 && count > info.maxOperands))
    return errorAtToken(mnemonicToken,
                        strCat("'", info.mnemonic, "' takes ", operandCountText(info), " operand",
                               info.maxOperands == 1 ? "" : "s", ", got ", count));

  AttrDict attrs;
  if (at(TokenKind::LBrace))
    XS_RETURN_IF_ERROR(parseAttrs(info, attrs));
  for (const AttrSpec &spec : info.attrs)
    if (spec.required && !attrs.contains(spec.name))
      return errorAtToken(mnemonicToken, strCat("'", info.mnemonic, "' requires attribute '",
                                                spec.name, "' (", attrKindName(spec.kind), ")"));

  TensorType type;
  if (consumeIf(TokenKind::Colon)) {
    XS_ASSIGN_OR_RETURN(type, parseType());
  } else if (info.hasFlag(kResultTypeRequired)) {
    return errorAtToken(mnemonicToken,
                        strCat("'", info.mnemonic,
                               "' needs its result type, e.g. ': f32[N, 4]'; its shape "
                               "comes from it"));
  }
  completeEmptyLiteralShape(attrs, type);
  function.createOp(*kind, std::move(operands), std::move(attrs), std::move(type), locOf(result),
                    std::string(result.text));
  return absl::OkStatus();
}

absl::Status ModuleParser::parseAttrs(const OpInfo &info, AttrDict &attrs) {
  consume(); // {
  while (true) {
    XS_ASSIGN_OR_RETURN(Token name, expect(TokenKind::Identifier, "an attribute name"));
    const AttrSpec *spec = info.findAttr(name.text);
    if (!spec)
      return errorAtToken(name, strCat("unknown attribute '", name.text, "' for '", info.mnemonic,
                                       "' (it takes ", attrNames(info), ")"));
    if (attrs.contains(name.text))
      return errorAtToken(
          name, strCat("attribute '", name.text, "' of '", info.mnemonic, "' is given twice"));
    XS_RETURN_IF_ERROR(expect(TokenKind::Equal, "'=' after the attribute name").status());
    XS_ASSIGN_OR_RETURN(Attribute value, parseAttrValue(info, *spec));
    attrs.emplace(std::string(name.text), std::move(value));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expect(TokenKind::RBrace, "',' or '}' after an attribute").status();
}

absl::StatusOr<Attribute> ModuleParser::parseAttrValue(const OpInfo &info, const AttrSpec &spec) {
  Token start = tok();
  auto wrongKind = [&]() {
    return errorAtToken(start,
                        strCat("attribute '", spec.name, "' of '", info.mnemonic, "' must be ",
                               attrKindName(spec.kind), ", got ", start.describe()));
  };
  bool numberStart =
      start.kind == TokenKind::Integer || start.kind == TokenKind::Float ||
      start.kind == TokenKind::Minus ||
      (start.kind == TokenKind::Identifier && (start.text == "nan" || start.text == "inf"));
  switch (spec.kind) {
  case AttrKind::Int: {
    bool integerStart = start.kind == TokenKind::Integer ||
                        (start.kind == TokenKind::Minus && lookahead(1).kind == TokenKind::Integer);
    if (!integerStart)
      return wrongKind();
    XS_ASSIGN_OR_RETURN(int64_t v, parseIntegerLiteral(true));
    return Attribute::integer(v);
  }
  case AttrKind::Float: {
    if (!numberStart)
      return wrongKind();
    XS_ASSIGN_OR_RETURN(double v, parseFloatLiteral());
    return Attribute::floating(v);
  }
  case AttrKind::IntList:
  case AttrKind::DimList: {
    if (start.kind != TokenKind::LBracket)
      return wrongKind();
    consume();
    std::vector<int64_t> ints;
    std::vector<DimExpr> dims;
    if (!at(TokenKind::RBracket)) {
      while (true) {
        if (spec.kind == AttrKind::IntList) {
          if (!at(TokenKind::Integer) &&
              !(at(TokenKind::Minus) && lookahead(1).kind == TokenKind::Integer))
            return unexpected(
                strCat("an integer in attribute '", spec.name, "' of '", info.mnemonic, "'"));
          XS_ASSIGN_OR_RETURN(int64_t v, parseIntegerLiteral(true));
          ints.push_back(v);
        } else {
          XS_ASSIGN_OR_RETURN(DimExpr d, parseDim());
          dims.push_back(std::move(d));
        }
        if (!consumeIf(TokenKind::Comma))
          break;
      }
    }
    XS_RETURN_IF_ERROR(expect(TokenKind::RBracket, "',' or ']' in the list").status());
    return spec.kind == AttrKind::IntList ? Attribute::intList(std::move(ints))
                                          : Attribute::dimList(std::move(dims));
  }
  case AttrKind::Enum: {
    if (start.kind != TokenKind::Identifier)
      return wrongKind();
    consume();
    return Attribute::enumeration(std::string(start.text));
  }
  case AttrKind::ElementType: {
    if (start.kind != TokenKind::Identifier)
      return wrongKind();
    std::optional<ElementType> t = parseElementType(start.text);
    if (!t)
      return errorAtToken(start, strCat("attribute '", spec.name, "' of '", info.mnemonic,
                                        "' must be an element type, got ", start.describe()));
    consume();
    return Attribute::elementType(*t);
  }
  case AttrKind::Literal: {
    if (!numberStart && !atKeyword("dense"))
      return wrongKind();
    XS_ASSIGN_OR_RETURN(LiteralValue v, parseLiteral());
    return Attribute::literal(std::move(v));
  }
  }
  return wrongKind();
}

} // namespace

absl::StatusOr<std::unique_ptr<Module>> parseModule(std::string_view text,
                                                    std::string_view fileName) {
  auto name = std::make_shared<const std::string>(fileName);
  ModuleParser parser(text, name);
  return parser.parse();
}

absl::StatusOr<std::unique_ptr<Module>> parseModuleFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  auto where = Location{std::make_shared<const std::string>(path), 0, 0};
  if (!in)
    return errorAt(where, "cannot open the file (does it exist and is it readable?)");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad())
    return errorAt(where, "cannot read the file");
  return parseModule(content.str(), path);
}

absl::StatusOr<DimExpr> parseDimExpr(std::string_view text) {
  ParserBase parser(text, std::make_shared<const std::string>("<dim>"));
  return parser.parseStandaloneDim();
}

} // namespace xs
