#include "ir/DimExpr.h"

#include <gtest/gtest.h>

namespace xs {
namespace {

DimExpr sym(const char *name) { return DimExpr::symbol(name); }

TEST(DimExprTest, ProductsAreCommutative) {
  EXPECT_EQ(sym("B") * sym("S"), sym("S") * sym("B"));
  EXPECT_EQ((sym("S") * sym("B") + 0).str(), "B*S");
  EXPECT_NE(sym("B") * sym("S"), sym("B") + sym("S"));
}

TEST(DimExprTest, CanonicalOrderAndPrinting) {
  EXPECT_EQ((DimExpr(1) + 2 * sym("N")).str(), "2*N + 1");
  EXPECT_EQ((sym("S") - 1).str(), "S - 1");
  EXPECT_EQ((sym("S") + sym("B") * sym("S") + sym("A")).str(), "B*S + A + S");
  EXPECT_EQ((-sym("N")).str(), "-N");
  EXPECT_EQ((DimExpr(3) - sym("N")).str(), "-N + 3");
  EXPECT_EQ(DimExpr().str(), "0");
  EXPECT_EQ(DimExpr(-4).str(), "-4");
  EXPECT_EQ((sym("N") * sym("N")).str(), "N*N");
}

TEST(DimExprTest, TermsCancel) {
  DimExpr e = sym("N") + 1 - sym("N");
  EXPECT_TRUE(e.isConstant());
  EXPECT_EQ(e.constantValue(), 1);
  EXPECT_EQ(sym("N") - sym("N"), DimExpr());
}

TEST(DimExprTest, SymbolQueries) {
  EXPECT_TRUE(sym("N").isSymbol());
  EXPECT_EQ(sym("N").symbolName(), "N");
  EXPECT_FALSE((2 * sym("N")).isSymbol());
  EXPECT_FALSE(DimExpr(3).isSymbol());
  std::vector<std::string> expected = {"B", "S", "T"};
  EXPECT_EQ((sym("T") + sym("S") * sym("B") + DimExpr::floorDiv(sym("S"), 2)).symbols(), expected);
}

TEST(DimExprTest, FloorDivFoldsConstantsAndMultiples) {
  EXPECT_EQ(DimExpr::floorDiv(7, 2), DimExpr(3));
  EXPECT_EQ(DimExpr::floorDiv(-7, 2), DimExpr(-4));
  EXPECT_EQ(DimExpr::floorDiv(4 * sym("N") + 8, 4), sym("N") + 2);
  // floor((4N + 3) / 4) = N for integer N.
  EXPECT_EQ(DimExpr::floorDiv(4 * sym("N") + 3, 4), sym("N"));
  EXPECT_EQ(DimExpr::floorDiv(sym("N"), 1), sym("N"));
}

TEST(DimExprTest, FloorDivKeepsAnAtom) {
  DimExpr half = DimExpr::floorDiv(sym("S") + 1, 2);
  EXPECT_EQ(half.str(), "(S + 1)/2");
  EXPECT_EQ(DimExpr::floorDiv(sym("S"), 2).str(), "S/2");
  EXPECT_EQ((2 * DimExpr::floorDiv(sym("S"), 2)).str(), "2*(S/2)");
  // The parser reads a leading minus as negating the whole term.
  EXPECT_EQ((-DimExpr::floorDiv(sym("S"), 2)).str(), "-S/2");
  EXPECT_EQ((sym("N") - DimExpr::floorDiv(sym("S"), 2)).str(), "N - S/2");
  // floor(floor(S / 2) / 3) = floor(S / 6).
  EXPECT_EQ(DimExpr::floorDiv(DimExpr::floorDiv(sym("S"), 2), 3), DimExpr::floorDiv(sym("S"), 6));
  // The multiple of the divisor is pulled out of the atom.
  EXPECT_EQ(DimExpr::floorDiv(2 * sym("N") + sym("S"), 2),
            sym("N") + DimExpr::floorDiv(sym("S"), 2));
}

TEST(DimExprTest, ExactDivOfMultiples) {
  DimExpr hw = sym("H") * sym("W");
  EXPECT_EQ(DimExpr::exactDiv(4 * hw, hw), DimExpr(4));
  EXPECT_EQ(DimExpr::exactDiv(4 * hw, 4 * sym("W")), sym("H"));
  EXPECT_EQ(DimExpr::exactDiv(4 * sym("B") * sym("S") + 8 * sym("B"), 4 * sym("B")), sym("S") + 2);
  EXPECT_EQ(DimExpr::exactDiv(768, 64), DimExpr(12));
  EXPECT_EQ(DimExpr::exactDiv(sym("N") * sym("N"), sym("N")), sym("N"));
  // Not a multiple in every term, or a divisor of several terms.
  EXPECT_EQ(DimExpr::exactDiv(6, 4), std::nullopt);
  EXPECT_EQ(DimExpr::exactDiv(sym("H"), hw), std::nullopt);
  EXPECT_EQ(DimExpr::exactDiv(hw + 1, sym("H")), std::nullopt);
  EXPECT_EQ(DimExpr::exactDiv(2 * sym("N") + 2, sym("N") + 1), std::nullopt);
  EXPECT_EQ(DimExpr::exactDiv(sym("N"), DimExpr(0)), std::nullopt);
}

TEST(DimExprTest, CeilDiv) {
  EXPECT_EQ(DimExpr::ceilDiv(7, 2), DimExpr(4));
  EXPECT_EQ(DimExpr::ceilDiv(8, 2), DimExpr(4));
  EXPECT_EQ(DimExpr::ceilDiv(sym("S"), 2).str(), "(S + 1)/2");
  DimBindings b = {{"S", 5}};
  EXPECT_EQ(*DimExpr::ceilDiv(sym("S"), 2).evaluate(b), 3);
}

TEST(DimExprTest, Evaluate) {
  DimBindings b = {{"B", 4}, {"S", 7}};
  EXPECT_EQ(*(sym("B") * sym("S") + 1).evaluate(b), 29);
  EXPECT_EQ(*DimExpr::floorDiv(sym("S") - 8, 2).evaluate(b), -1); // floor, not truncation
  absl::StatusOr<int64_t> missing = (sym("B") * sym("T")).evaluate(b);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'T'"), std::string_view::npos);
}

TEST(DimExprTest, Substitute) {
  absl::flat_hash_map<std::string, DimExpr> map = {{"T", sym("B") * sym("S")}, {"M", sym("N")}};
  EXPECT_EQ((sym("T") + sym("M")).substitute(map), sym("B") * sym("S") + sym("N"));
  EXPECT_EQ((sym("M") - sym("N")).substitute(map), DimExpr());
  // Inside a floor division the substituted numerator is folded again.
  absl::flat_hash_map<std::string, DimExpr> twice = {{"S", 2 * sym("K")}};
  EXPECT_EQ(DimExpr::floorDiv(sym("S"), 2).substitute(twice), sym("K"));
  EXPECT_EQ(sym("X").substitute(map), sym("X"));
}

TEST(DimExprTest, TotalOrderIsStrictWeak) {
  DimExpr a = sym("A"), b = sym("B"), ab = sym("A") * sym("B");
  EXPECT_TRUE(a < b);
  EXPECT_FALSE(b < a);
  EXPECT_FALSE(a < a);
  EXPECT_TRUE(ab < a); // higher degree first
  EXPECT_TRUE(DimExpr(1) < DimExpr(2));
}

TEST(DimExprTest, Product) {
  EXPECT_EQ(dimProduct({}), DimExpr(1));
  EXPECT_EQ(dimProduct({sym("B"), sym("S"), 768}).str(), "768*B*S");
}

} // namespace
} // namespace xs
