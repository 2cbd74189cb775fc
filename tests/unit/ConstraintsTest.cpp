#include "ir/Constraints.h"

#include <gtest/gtest.h>

#include "absl/strings/str_join.h"

namespace xs {
namespace {

DimExpr sym(const char *name) { return DimExpr::symbol(name); }

std::string factsText(const ConstraintStore &store) {
  std::vector<std::string> parts;
  for (const Constraint &c : store.facts())
    parts.push_back(c.str());
  return absl::StrJoin(parts, ", ");
}

bool contains(absl::string_view text, absl::string_view part) {
  return text.find(part) != absl::string_view::npos;
}

TEST(ConstraintsTest, FirstNotedSymbolRepresentsItsClass) {
  ConstraintStore store;
  store.noteSymbol("N");
  store.noteSymbol("M");
  ASSERT_TRUE(store.addEqual(sym("M"), sym("N")).ok());
  EXPECT_EQ(store.canonicalize(sym("M")), sym("N"));
  EXPECT_EQ(store.canonicalize(sym("N")), sym("N"));
  EXPECT_TRUE(store.provablyEqual(sym("M") + 1, sym("N") + 1));
  EXPECT_EQ(factsText(store), "N == M");
}

// Host symbols are bound after the parameters' symbols, so a fact never
// defines a parameter's symbol by them: N == R0*R1 stays a fact (without the
// rule N would mean R0*R1), and N == H + 1 defines H, not N, even when H was
// noted first.
TEST(ConstraintsTest, HostSymbolsNeverDefineOtherSymbols) {
  ConstraintStore store;
  store.noteHostSymbol("H");
  store.noteSymbol("N");
  store.noteHostSymbol("R0");
  store.noteHostSymbol("R1");
  ASSERT_TRUE(store.addEqual(sym("N"), sym("R0") * sym("R1")).ok());
  EXPECT_EQ(store.canonicalize(sym("N")), sym("N"));
  EXPECT_EQ(factsText(store), "N == R0*R1");
  ASSERT_TRUE(store.addEqual(sym("N"), sym("H") + 1).ok());
  EXPECT_EQ(store.canonicalize(sym("H")), sym("N") - 1);
  EXPECT_EQ(store.canonicalize(sym("N")), sym("N"));
  EXPECT_FALSE(store.check({{"N", 6}, {"R0", 2}, {"R1", 4}, {"H", 5}}).ok());
  EXPECT_TRUE(store.check({{"N", 6}, {"R0", 2}, {"R1", 3}, {"H", 5}}).ok());
}

TEST(ConstraintsTest, UnionIsTransitive) {
  ConstraintStore store;
  for (const char *s : {"A", "B", "C", "D"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("C"), sym("D")).ok());
  ASSERT_TRUE(store.addEqual(sym("B"), sym("C")).ok());
  ASSERT_TRUE(store.addEqual(sym("D"), sym("A")).ok());
  for (const char *s : {"B", "C", "D"})
    EXPECT_EQ(store.canonicalize(sym(s)), sym("A")) << s;
  EXPECT_EQ(factsText(store), "A == B, A == C, A == D");
}

TEST(ConstraintsTest, ReshapeDefinesASymbolByAProduct) {
  ConstraintStore store;
  for (const char *s : {"B", "S", "T"})
    store.noteSymbol(s);
  // [B, S, 768] -> [T, 768]: the element counts are equal.
  ASSERT_TRUE(store.addEqual(sym("B") * sym("S") * 768, sym("T") * 768).ok());
  EXPECT_EQ(store.canonicalize(sym("T")), sym("B") * sym("S"));
  EXPECT_TRUE(store.provablyEqual(sym("T") * 2, sym("S") * sym("B") * 2));
  EXPECT_EQ(factsText(store), "T == B*S");
}

TEST(ConstraintsTest, LaterDefinitionsRewriteEarlierOnes) {
  ConstraintStore store;
  for (const char *s : {"N", "T", "U", "K"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("T"), sym("U") + 1).ok()); // U := T - 1
  ASSERT_TRUE(store.addEqual(sym("K"), sym("U") * 2).ok()); // K := 2*T - 2
  ASSERT_TRUE(store.addEqual(sym("T"), sym("N")).ok());     // T joins N
  EXPECT_EQ(store.canonicalize(sym("K")), 2 * sym("N") - 2);
  EXPECT_EQ(store.canonicalize(sym("U")), sym("N") - 1);
}

TEST(ConstraintsTest, ContradictionsFailWithoutChangingTheStore) {
  ConstraintStore store;
  store.noteSymbol("N");
  absl::Status s = store.addEqual(DimExpr(3), DimExpr(4));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(store.addEqual(sym("N"), sym("N") + 1).ok());
  EXPECT_FALSE(store.addEqual(2 * sym("N"), 7).ok());
  ASSERT_TRUE(store.addEqual(sym("N"), 768).ok());
  absl::Status bad = store.addEqual(sym("N"), 64);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.message(), "N == 64")) << bad.message();
  EXPECT_EQ(store.canonicalize(sym("N")), DimExpr(768));
  EXPECT_EQ(factsText(store), "N == 768");
}

TEST(ConstraintsTest, ProvablyDifferent) {
  ConstraintStore store;
  store.noteSymbol("N");
  store.noteSymbol("M");
  EXPECT_TRUE(store.provablyDifferent(sym("N"), sym("N") + 1));
  EXPECT_TRUE(store.provablyDifferent(2 * sym("N"), 2 * sym("M") + 1)); // parity
  EXPECT_TRUE(store.provablyDifferent(sym("N") + 1, DimExpr(0)));       // dims are >= 0
  EXPECT_FALSE(store.provablyDifferent(sym("N"), sym("M")));
  EXPECT_FALSE(store.provablyEqual(sym("N"), sym("M")));
  ASSERT_TRUE(store.addRange("M", 10, 20).ok());
  EXPECT_TRUE(store.provablyDifferent(sym("M"), 5));
  EXPECT_FALSE(store.provablyDifferent(sym("M"), 15));
}

TEST(ConstraintsTest, SolvesSingleSymbolWithCoefficient) {
  ConstraintStore store;
  store.noteSymbol("N");
  ASSERT_TRUE(store.addEqual(4 * sym("N"), 12).ok());
  EXPECT_EQ(store.canonicalize(sym("N")), DimExpr(3));
}

TEST(ConstraintsTest, ProductGroupsWhenNoSymbolCanBeSolved) {
  ConstraintStore store;
  for (const char *s : {"B", "S", "T", "U"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("B") * sym("S"), sym("T") * sym("U")).ok());
  EXPECT_TRUE(store.provablyEqual(sym("T") * sym("U"), sym("S") * sym("B")));
  EXPECT_TRUE(store.provablyEqual(8 * sym("T") * sym("U"), 8 * sym("S") * sym("B")));
  EXPECT_FALSE(store.provablyEqual(sym("T"), sym("B")));
  EXPECT_EQ(factsText(store), "B*S == T*U");
  // Once U is known to be S, the group becomes B*S == S*T, still a group;
  // once B == T, it is trivial.
  ASSERT_TRUE(store.addEqual(sym("U"), sym("S")).ok());
  ASSERT_TRUE(store.addEqual(sym("T"), sym("B")).ok());
  EXPECT_EQ(factsText(store), "B == T, S == U");
}

TEST(ConstraintsTest, ProductGroupBecomesADefinition) {
  ConstraintStore store;
  for (const char *s : {"B", "S", "T", "U"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("B") * sym("S"), sym("T") * sym("U")).ok());
  ASSERT_TRUE(store.addEqual(sym("U"), 1).ok());
  EXPECT_EQ(store.canonicalize(sym("T")), sym("B") * sym("S"));
}

TEST(ConstraintsTest, Divisibility) {
  ConstraintStore store;
  store.noteSymbol("S");
  store.noteSymbol("N");
  EXPECT_FALSE(store.provablyDivisible(sym("S"), 8));
  ASSERT_TRUE(store.addDivisible(sym("S"), 8).ok());
  EXPECT_TRUE(store.provablyDivisible(sym("S"), 8));
  EXPECT_TRUE(store.provablyDivisible(sym("S"), 4));
  EXPECT_FALSE(store.provablyDivisible(sym("S"), 16));
  EXPECT_TRUE(store.provablyDivisible(4 * sym("N") + sym("S"), 4));
  EXPECT_TRUE(store.provablyDivisible(6 * sym("N"), 3));
  EXPECT_FALSE(store.addDivisible(2 * sym("N") + 1, 2).ok());
  EXPECT_FALSE(store.addDivisible(sym("N"), 0).ok());
  EXPECT_EQ(factsText(store), "S % 8 == 0");
}

TEST(ConstraintsTest, DivisibilityCancelsTheQuotientsOfItsSymbol) {
  // pixel_unshuffle's reshape: [B, 4, H, W] to [B, 4, H/2, 2, W/2, 2].
  ConstraintStore store;
  for (const char *s : {"B", "H", "W"})
    store.noteSymbol(s);
  const DimExpr half = DimExpr::floorDiv(sym("H"), 2);
  const DimExpr in = 4 * sym("B") * sym("H") * sym("W");
  const DimExpr out = 16 * sym("B") * half * DimExpr::floorDiv(sym("W"), 2);
  EXPECT_FALSE(store.provablyEqual(in, out));
  ASSERT_TRUE(store.addDivisible(sym("H"), 2).ok());
  EXPECT_FALSE(store.provablyEqual(in, out));
  ASSERT_TRUE(store.addDivisible(sym("W"), 4).ok());
  EXPECT_TRUE(store.provablyEqual(in, out));
  EXPECT_TRUE(store.provablyEqual(2 * half, sym("H")));
  // W/4 * 4 is W, and so is W/2 * 2 (4 divides W), but H/4 * 4 is not H.
  EXPECT_TRUE(store.provablyEqual(4 * DimExpr::floorDiv(sym("W"), 4), sym("W")));
  EXPECT_FALSE(store.provablyEqual(4 * DimExpr::floorDiv(sym("H"), 4), sym("H")));
  // The quotients are not symbols of the store.
  EXPECT_EQ(factsText(store), "H % 2 == 0, W % 4 == 0");
}

TEST(ConstraintsTest, Ranges) {
  ConstraintStore store;
  store.noteSymbol("B");
  store.noteSymbol("C");
  EXPECT_EQ(store.rangeOf("B").lo, 0);
  ASSERT_TRUE(store.addRange("B", 1, 64).ok());
  ASSERT_TRUE(store.addRange("B", 0, 32).ok());
  EXPECT_EQ(store.rangeOf("B").lo, 1);
  EXPECT_EQ(store.rangeOf("B").hi, 32);
  EXPECT_FALSE(store.addRange("B", 40, 50).ok());
  // A union merges the ranges of the two classes.
  ASSERT_TRUE(store.addRange("C", 8, INT64_MAX).ok());
  ASSERT_TRUE(store.addEqual(sym("C"), sym("B")).ok());
  EXPECT_EQ(store.rangeOf("C").lo, 8);
  EXPECT_EQ(store.rangeOf("B").hi, 32);
  EXPECT_EQ(factsText(store), "B == C, 8 <= B <= 32");
  std::optional<DimRange> bounds = store.boundsOf(2 * sym("B") + 1);
  ASSERT_TRUE(bounds);
  EXPECT_EQ(bounds->lo, 17);
  EXPECT_EQ(bounds->hi, 65);
  EXPECT_FALSE(store.addEqual(sym("B"), 100).ok());
}

TEST(ConstraintsTest, CheckNamesTheFactAndTheValues) {
  ConstraintStore store;
  for (const char *s : {"N", "M", "S"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("N"), sym("M")).ok());
  ASSERT_TRUE(store.addDivisible(sym("S"), 8).ok());
  ASSERT_TRUE(store.addRange("S", 1, 64).ok());
  EXPECT_TRUE(store.check({{"N", 3}, {"M", 3}, {"S", 16}}).ok());

  absl::Status eq = store.check({{"N", 3}, {"M", 4}, {"S", 16}});
  ASSERT_FALSE(eq.ok());
  EXPECT_EQ(eq.message(), "N == M does not hold: M = 4, N = 3");

  absl::Status div = store.check({{"N", 3}, {"M", 3}, {"S", 12}});
  ASSERT_FALSE(div.ok());
  EXPECT_EQ(div.message(), "S % 8 == 0 does not hold: S = 12");

  absl::Status range = store.check({{"N", 3}, {"M", 3}, {"S", 128}});
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.message(), "1 <= S <= 64 does not hold: S = 128");
}

TEST(ConstraintsTest, DeriveBindingsFromDefinitions) {
  ConstraintStore store;
  for (const char *s : {"B", "S", "T", "N", "M"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addEqual(sym("T"), sym("B") * sym("S")).ok());
  ASSERT_TRUE(store.addEqual(sym("M"), sym("N") + 1).ok());
  DimBindings b = {{"B", 2}, {"S", 5}, {"M", 10}};
  store.deriveBindings(b);
  EXPECT_EQ(b["T"], 10);
  EXPECT_EQ(b["N"], 9); // solved backwards through M == N + 1
  EXPECT_TRUE(store.check({{"B", 2}, {"S", 5}, {"N", 1}}).ok());
  absl::Status s = store.check({{"B", 2}, {"S", 5}, {"T", 11}, {"N", 1}});
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "T == B*S does not hold")) << s.message();
}

TEST(ConstraintsTest, CheckRejectsNegativeDerivedSizes) {
  ConstraintStore store;
  store.noteSymbol("S");
  store.noteSymbol("K");
  ASSERT_TRUE(store.addEqual(sym("K"), sym("S") - 2).ok());
  absl::Status s = store.check({{"S", 1}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "K >= 0 does not hold: K = -1");
}

// D == broadcast(N, M) stays open until a fact decides it: then it is D's
// equality, and checking a call's dims enforces the numpy rule.
TEST(ConstraintsTest, BroadcastFactStaysOpenUntilDecided) {
  ConstraintStore store;
  for (const char *s : {"N", "M"})
    store.noteSymbol(s);
  ASSERT_TRUE(store.addBroadcast("D", sym("N"), sym("M")).ok());
  ASSERT_EQ(store.broadcasts().size(), 1u);
  EXPECT_EQ(factsText(store), "D == broadcast(N, M)");
  EXPECT_TRUE(store.broadcastsTo(sym("N"), sym("D")));
  EXPECT_TRUE(store.broadcastsTo(sym("M"), sym("D")));
  EXPECT_FALSE(store.broadcastsTo(sym("D"), sym("N")));

  EXPECT_TRUE(store.check({{"N", 4}, {"M", 4}, {"D", 4}}).ok());
  EXPECT_TRUE(store.check({{"N", 1}, {"M", 4}, {"D", 4}}).ok());
  EXPECT_TRUE(store.check({{"N", 4}, {"M", 1}, {"D", 4}}).ok());
  absl::Status s = store.check({{"N", 3}, {"M", 5}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(std::string(s.message()),
            "N and M meet in a broadcast, so they must be equal or one of them 1: N = 3, M = 5");
  s = store.check({{"N", 1}, {"M", 5}, {"D", 1}});
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "D == broadcast(N, M) does not hold")) << s.message();

  DimBindings b = {{"N", 1}, {"M", 7}};
  store.deriveBindings(b);
  EXPECT_EQ(b["D"], 7);
  b = {{"N", 6}, {"M", 1}};
  store.deriveBindings(b);
  EXPECT_EQ(b["D"], 6);

  ConstraintStore equal = store;
  ASSERT_TRUE(equal.addEqual(sym("M"), sym("N")).ok());
  EXPECT_TRUE(equal.broadcasts().empty());
  EXPECT_EQ(equal.canonicalize(sym("D")), sym("N"));
  ConstraintStore unit = store;
  ASSERT_TRUE(unit.addEqual(sym("N"), DimExpr(1)).ok());
  EXPECT_TRUE(unit.broadcasts().empty());
  EXPECT_EQ(unit.canonicalize(sym("D")), sym("M"));
}

TEST(ConstraintsTest, BroadcastFactDecidedOrRefutedWhenAdded) {
  ConstraintStore store;
  store.noteSymbol("N");
  ASSERT_TRUE(store.addBroadcast("D", sym("N"), DimExpr(1)).ok());
  EXPECT_TRUE(store.broadcasts().empty());
  EXPECT_EQ(store.canonicalize(sym("D")), sym("N"));
  ASSERT_TRUE(store.addBroadcast("E", sym("N"), sym("N")).ok());
  EXPECT_EQ(store.canonicalize(sym("E")), sym("N"));

  absl::Status s = store.addBroadcast("F", DimExpr(3), DimExpr(4));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "must be equal or one of them 1")) << s.message();

  // A later equality that makes the operands 3 and 4 cannot hold.
  ConstraintStore open;
  for (const char *name : {"N", "M"})
    open.noteSymbol(name);
  ASSERT_TRUE(open.addBroadcast("D", sym("N"), sym("M")).ok());
  ASSERT_TRUE(open.addEqual(sym("N"), DimExpr(3)).ok());
  ASSERT_EQ(open.broadcasts().size(), 1u);
  EXPECT_EQ(open.broadcasts()[0].a, DimExpr(3));
  s = open.addEqual(sym("M"), DimExpr(4));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "M == 4 cannot hold")) << s.message();
}

TEST(ConstraintsTest, EmptyStore) {
  ConstraintStore store;
  EXPECT_TRUE(store.empty());
  store.noteSymbol("N");
  EXPECT_TRUE(store.empty());
  ASSERT_TRUE(store.addEqual(sym("N"), sym("N")).ok());
  EXPECT_TRUE(store.empty());
  EXPECT_TRUE(store.check({}).ok());
}

} // namespace
} // namespace xs
