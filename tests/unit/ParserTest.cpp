// Parser behaviour that the lit tests do not pin down: dim canonicalization
// through parseDimExpr, number literals at their limits, what gets recorded in
// the IR, and inputs that must fail cleanly rather than crash.

#include <cmath>
#include <limits>
#include <string>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

DimExpr dim(std::string_view text) {
  absl::StatusOr<DimExpr> d = parseDimExpr(text);
  EXPECT_TRUE(d.ok()) << text << ": " << d.status().message();
  return d.ok() ? *d : DimExpr();
}

std::unique_ptr<Module> parse(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

std::string parseError(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_FALSE(m.ok()) << "parsed unexpectedly:\n" << text;
  return m.ok() ? std::string() : std::string(m.status().message());
}

/// The attribute `name` of the only op of the only function.
const Attribute &onlyAttr(const Module &m, std::string_view name) {
  const Attribute *a = m.functions().at(0)->ops().at(0)->attr(name);
  EXPECT_NE(a, nullptr);
  static const Attribute missing = Attribute::integer(0);
  return a ? *a : missing;
}

TEST(ParserTest, DimsAreCanonical) {
  EXPECT_EQ(dim("S*B"), dim("B*S"));
  EXPECT_EQ(dim("S*B").str(), "B*S");
  EXPECT_EQ(dim("1 + N*2").str(), "2*N + 1");
  EXPECT_EQ(dim("-1 + S").str(), "S - 1");
  EXPECT_EQ(dim("S + S - 2*S"), DimExpr(0));
  EXPECT_EQ(dim("(B + 1)*(B - 1)").str(), "B*B - 1");
  EXPECT_EQ(dim("(S+1)/2").str(), "(S + 1)/2");
  EXPECT_EQ(dim("(2*S + 4)/2"), dim("S + 2"));
  EXPECT_EQ(dim("S/(1 + 1)"), dim("S/2"));
  EXPECT_EQ(dim("7/2"), DimExpr(3));
  EXPECT_EQ(dim("S/1"), dim("S"));
  EXPECT_EQ(dim("  768 "), DimExpr(768));
}

TEST(ParserTest, LeadingMinusNegatesTheWholeTerm) {
  // -S/2 is -(S/2), not (-S)/2: that is how a negative floor-division term
  // prints, so it must read back the same.
  DimExpr negatedQuotient = -DimExpr::floorDiv(DimExpr::symbol("S"), 2);
  EXPECT_EQ(dim("-S/2"), negatedQuotient);
  EXPECT_EQ(dim(negatedQuotient.str()), negatedQuotient);
  EXPECT_EQ(dim("(-S)/2"), DimExpr::floorDiv(-DimExpr::symbol("S"), 2));
  EXPECT_NE(dim("(-S)/2"), negatedQuotient);
  EXPECT_EQ(dim("-7/2"), DimExpr(-3));
  EXPECT_EQ(dim("2*-S"), dim("-2*S"));
}

TEST(ParserTest, PrintedDimsReadBack) {
  for (std::string_view text :
       {"B*S - 1", "(S + 1)/2", "4 - S/2", "((S + 1)/2 + T)/3", "N*N*((S + 3)/4)*2", "-(B*S)/5 + 7",
        "(-S - 1)/2", "3*((N - 1)/2)"}) {
    DimExpr d = dim(text);
    EXPECT_EQ(dim(d.str()), d) << text << " printed as " << d.str();
  }
}

TEST(ParserTest, BadDimsAreErrors) {
  for (std::string_view text :
       {"", "S +", "S / T", "S / 0", "S / -2", "S / (N - N)", "(S", "S)", "S % 2", "2S",
        "99999999999999999999", "9223372036854775807 + 9223372036854775807",
        "4611686018427387904 * 4", "((S + 1)/4611686018427387904)/4", "$"}) {
    absl::StatusOr<DimExpr> d = parseDimExpr(text);
    EXPECT_FALSE(d.ok()) << "'" << text << "' parsed as " << d->str();
  }
  absl::StatusOr<DimExpr> d = parseDimExpr("S / T");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("<dim>:1:5: error: a dimension can only be divided by a "
                                      "positive integer constant"),
            std::string_view::npos)
      << d.status().message();
}

TEST(ParserTest, DeepNestingFailsWithoutCrashing) {
  std::string deep = std::string(100000, '(') + "S" + std::string(100000, ')');
  absl::StatusOr<DimExpr> d = parseDimExpr(deep);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("nesting is deeper"), std::string_view::npos);
  std::string minuses = std::string(100000, '-') + "S";
  EXPECT_FALSE(parseDimExpr(minuses).ok());
  std::string lists = "func @f() -> (y) {\n  %y = constant {value = dense<" +
                      std::string(100000, '[') + "1" + std::string(100000, ']') +
                      ">} : i32[1]\n  return %y\n}\n";
  EXPECT_NE(parseError(lists).find("nesting is deeper"), std::string::npos);
}

TEST(ParserTest, HugePolynomialsAreRefused) {
  std::string product = "(A + B + C + D + E + F + G + H)";
  std::string text = product;
  for (int i = 0; i < 6; ++i)
    text += "*" + product;
  EXPECT_FALSE(parseDimExpr(text).ok());
}

TEST(ParserTest, IntegerLiteralsAtTheLimits) {
  auto m = parse("func @f() -> (a, b) {\n"
                 "  %a = constant {value = -9223372036854775808} : i64[]\n"
                 "  %b = constant {value = 9223372036854775807} : i64[]\n"
                 "  return %a, %b\n}\n");
  ASSERT_TRUE(m);
  const Function &f = *m->functions()[0];
  const LiteralValue &a = f.ops()[0]->attr("value")->getLiteral();
  const LiteralValue &b = f.ops()[1]->attr("value")->getLiteral();
  ASSERT_TRUE(a.isInteger);
  ASSERT_TRUE(b.isInteger);
  EXPECT_EQ(a.ints.at(0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(b.ints.at(0), std::numeric_limits<int64_t>::max());

  std::string err = parseError("func @f() -> (a) {\n"
                               "  %a = constant {value = 9223372036854775808} : i64[]\n"
                               "  return %a\n}\n");
  EXPECT_NE(err.find("test.xs:2:26: error: integer 9223372036854775808 does not fit"),
            std::string::npos)
      << err;
  err = parseError("func @f() -> (a) {\n"
                   "  %a = iota {dim = -9223372036854775809} : i64[4]\n"
                   "  return %a\n}\n");
  EXPECT_NE(err.find("does not fit in 64 bits"), std::string::npos) << err;
}

TEST(ParserTest, FloatLiterals) {
  auto parseEpsilon = [](std::string_view value) -> double {
    std::string text =
        "func @f(%x: f32[N]) -> (y) {\n  %y = layer_norm %x {epsilon = " + std::string(value) +
        "}\n  return %y\n}\n";
    auto m = parseModule(text, "test.xs");
    EXPECT_TRUE(m.ok()) << value << ": " << m.status().message();
    return m.ok() ? (*m)->functions()[0]->ops()[0]->attr("epsilon")->getFloat() : -12345.0;
  };
  EXPECT_EQ(parseEpsilon("1.0e-05"), 1.0e-05);
  EXPECT_EQ(parseEpsilon("1e-5"), 1.0e-05);
  EXPECT_EQ(parseEpsilon("2.5E+3"), 2500.0);
  EXPECT_EQ(parseEpsilon("3"), 3.0); // an integer is accepted as a float
  EXPECT_EQ(parseEpsilon("-0.5"), -0.5);
  EXPECT_TRUE(std::isnan(parseEpsilon("nan")));
  EXPECT_EQ(parseEpsilon("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parseEpsilon("-inf"), -std::numeric_limits<double>::infinity());
  double negativeZero = parseEpsilon("-0.0");
  EXPECT_EQ(negativeZero, 0.0);
  EXPECT_TRUE(std::signbit(negativeZero));
  EXPECT_EQ(parseEpsilon("0.1"), 0.1);

  for (std::string_view bad : {"1e999", "1.", "1e", "1.5x", "--1.0", "lt"}) {
    std::string text =
        "func @f(%x: f32[N]) -> (y) {\n  %y = layer_norm %x {epsilon = " + std::string(bad) +
        "}\n  return %y\n}\n";
    EXPECT_FALSE(parseModule(text, "test.xs").ok()) << bad;
  }
}

TEST(ParserTest, DenseLiterals) {
  auto m = parse("func @f() -> (y) {\n"
                 "  %y = constant {value = dense<[[1, 2.5, 3], [-4, nan, 6]]>} : f32[2, 3]\n"
                 "  return %y\n}\n");
  ASSERT_TRUE(m);
  const LiteralValue &v = onlyAttr(*m, "value").getLiteral();
  EXPECT_EQ(v.shape, (std::vector<int64_t>{2, 3}));
  ASSERT_FALSE(v.isInteger); // one float makes every element a float
  ASSERT_EQ(v.floats.size(), 6u);
  EXPECT_EQ(v.floats[3], -4.0);
  EXPECT_TRUE(std::isnan(v.floats[4]));

  m = parse("func @f() -> (y) {\n"
            "  %y = constant {value = dense<[[], []]>} : i32[2, 0]\n"
            "  return %y\n}\n");
  ASSERT_TRUE(m);
  const LiteralValue &empty = onlyAttr(*m, "value").getLiteral();
  EXPECT_EQ(empty.shape, (std::vector<int64_t>{2, 0}));
  EXPECT_TRUE(empty.isInteger);
  EXPECT_EQ(empty.size(), 0);

  for (std::string_view bad : {"dense<[[1], 2]>", "dense<[1, [2]]>", "dense<[[1], [[2]]]>",
                               "dense<[[1, 2], []]>", "dense<1>", "dense<[1, 2]", "dense[1]"}) {
    std::string text = "func @f() -> (y) {\n  %y = constant {value = " + std::string(bad) +
                       "} : i32[2]\n  return %y\n}\n";
    EXPECT_FALSE(parseModule(text, "test.xs").ok()) << bad;
  }
}

TEST(ParserTest, RecordsTheFunction) {
  auto m = parse("// comment\n"
                 "func @f(%x: f32[B, S], %w: f32[S]) -> (y: f32[B, S], z) {\n"
                 "  %b = broadcast %w {dims = [1]} : f32[B, S] // trailing comment\n"
                 "  %y = mul %x, %b\n"
                 "  return %y, %b\n"
                 "}\n");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->functions().size(), 1u);
  const Function &f = *m->functions()[0];
  EXPECT_EQ(f.name(), "f");
  ASSERT_EQ(f.params().size(), 2u);
  EXPECT_EQ(f.param(1)->type().str(), "f32[S]");
  ASSERT_EQ(f.ops().size(), 2u);
  const Operation &mul = *f.ops()[1];
  EXPECT_EQ(mul.kind(), OpKind::Mul);
  EXPECT_EQ(mul.operand(0), f.param(0));
  EXPECT_EQ(mul.operand(1), f.ops()[0]->result());
  EXPECT_FALSE(mul.type().known()); // left for shape inference
  EXPECT_EQ(f.ops()[0]->type().str(), "f32[B, S]");
  EXPECT_EQ(f.ops()[0]->loc().line, 3);
  EXPECT_EQ(f.ops()[0]->loc().col, 3);
  ASSERT_EQ(f.results().size(), 2u);
  EXPECT_EQ(f.results()[0].value, mul.result());
  EXPECT_EQ(f.results()[0].declaredType.str(), "f32[B, S]");
  EXPECT_FALSE(f.results()[1].declaredType.known());
  EXPECT_EQ(printOp(mul), "%y = mul %x, %b");
}

TEST(ParserTest, OperandsStopAtTheNextDefinition) {
  // `%y = neg` followed by `%z = ...` must not take %z as an operand.
  std::string err = parseError("func @f(%x: f32[N]) -> (z) {\n"
                               "  %y = neg\n"
                               "  %z = neg %x\n"
                               "  return %z\n}\n");
  EXPECT_NE(err.find("test.xs:2:8: error: 'neg' takes 1 operand, got 0"), std::string::npos) << err;
}

TEST(ParserTest, WhereFactsUseTheFirstParameterSpelling) {
  auto m = parse("func @f(%a: f32[N], %b: f32[M]) -> (y)\n"
                 "    where M == N, N % 4 == 0, 1 <= M <= 64, K >= 2, L <= 9 {\n"
                 "  return %a\n}\n");
  ASSERT_TRUE(m);
  const ConstraintStore &store = m->functions()[0]->constraints();
  // N appears first in the parameters, so it names the class {N, M}.
  EXPECT_EQ(store.canonicalize(DimExpr::symbol("M")), DimExpr::symbol("N"));
  EXPECT_TRUE(store.provablyDivisible(DimExpr::symbol("N"), 4));
  EXPECT_EQ(store.rangeOf("N").lo, 1);
  EXPECT_EQ(store.rangeOf("N").hi, 64);
  EXPECT_EQ(store.rangeOf("K").lo, 2);
  EXPECT_EQ(store.rangeOf("L").hi, 9);
  EXPECT_FALSE(store.facts().empty());

  for (std::string_view bad : {"N % 0 == 0", "N % 4 == 1", "N*M <= 4", "4 >= N", "N < 4",
                               "N == N + 1", "5 <= N <= 4", "N %"}) {
    std::string text =
        "func @f(%a: f32[N], %b: f32[M]) -> (y) where " + std::string(bad) + " {\n  return %a\n}\n";
    EXPECT_FALSE(parseModule(text, "test.xs").ok()) << bad;
  }
}

TEST(ParserTest, StructuralErrors) {
  EXPECT_NE(parseError("func @f(%x: f32[N]) -> (y) {\n  %y = add %x, %x {dir = lt}\n"
                       "  return %y\n}\n")
                .find("2:20: error: unknown attribute 'dir' for 'add' (it takes no attributes)"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: f32[N]) -> (y, y) {\n  return %x, %x\n}\n")
                .find("1:28: error: duplicate result name 'y'"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: f32[N]) -> (y) {\n  %y = cast %x {to = f17}\n"
                       "  return %y\n}\n")
                .find("2:22: error: attribute 'to' of 'cast' must be an element type"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: f32[-1]) -> (y) {\n  return %x\n}\n")
                .find("1:17: error: a dimension must not be negative"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: f32[N]) -> (y) {\n  %y = tanhh %x\n  return %y\n}\n")
                .find("did you mean 'tanh'?"),
            std::string::npos);
  EXPECT_EQ(parseError("func @f(%x: f32[N]) -> (y) {\n  %y = frobnicate %x\n"
                       "  return %y\n}\n")
                .find("did you mean"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: f32[N]) -> (y) {\n  return %x\n  %y = neg %x\n}\n")
                .find("3:3: error: expected '}' after 'return'"),
            std::string::npos);
}

TEST(ParserTest, EmptyModuleAndFileErrors) {
  auto m = parse("  // nothing here\n");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->functions().empty());
  EXPECT_EQ(printModule(*m), "");
  absl::StatusOr<std::unique_ptr<Module>> missing = parseModuleFile("/nonexistent/dir/missing.xs");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/dir/missing.xs: error: cannot open"),
            std::string_view::npos)
      << missing.status().message();
}

} // namespace
} // namespace xs
