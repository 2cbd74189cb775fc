// isAtMostItsMaximum: exactly the subtractions of a maximum broadcast back
// over the elements it was taken from, and nothing that only looks alike;
// isSoftmaxMaximum: exactly softmax's maximum, not one whose NaNs or zero
// sign another use could show; roundedOnlyTo16Bits: exp values that reach
// results only rounded to f16 or bf16, through ops that keep their relative
// error small; isClampedIndex: indices clamped into [0, size - 1] either way
// round, or literals and iotas that fit, and nothing clamped only on one
// side or to another dim.

#include <algorithm>
#include <string>

#include "ir/Parser.h"
#include "ir/ValueFacts.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

/// Whether the reduce_max named `name` in the only function of `text` is
/// softmax's maximum.
bool softmaxMaximum(std::string_view text, const std::string &name) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return false;
  const Function &f = *(*m)->functions()[0];
  for (const auto &op : f.ops())
    if (op->result()->name() == name)
      return isSoftmaxMaximum(f, *op);
  ADD_FAILURE() << "no value %" << name;
  return false;
}

/// A decomposed softmax over dim 1 of f32[R, C] with `extra` before the
/// return, returning `results`.
std::string softmax(const std::string &extra, const std::string &results) {
  std::string names = results;
  names.erase(std::remove(names.begin(), names.end(), '%'), names.end());
  return "func @f(%x: f32[R, C]) -> (" + names +
         ") {\n"
         "  %m = reduce_max %x {dims = [1]}\n"
         "  %mb = broadcast %m {dims = [0]} : f32[R, C]\n"
         "  %d = sub %x, %mb : f32[R, C]\n"
         "  %e = exp %d : f32[R, C]\n"
         "  %s = reduce_sum %e {dims = [1]}\n"
         "  %sb = broadcast %s {dims = [0]} : f32[R, C]\n"
         "  %y = div %e, %sb\n" +
         extra + "  return " + results + "\n}\n";
}

/// Whether the value named `name` in the only function of `text` is at most
/// its maximum.
bool fact(std::string_view text, const std::string &name) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return false;
  for (const auto &op : (*m)->functions()[0]->ops())
    if (op->result()->name() == name)
      return isAtMostItsMaximum(*op->result());
  ADD_FAILURE() << "no value %" << name;
  return false;
}

TEST(ValueFactsTest, SoftmaxArgumentOverRowsAndColumns) {
  EXPECT_TRUE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %m = reduce_max %x {dims = [1]}
  %b = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %b
  return %d
})",
                   "d"));
  EXPECT_TRUE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %m = reduce_max %x {dims = [0]}
  %b = broadcast %m {dims = [1]} : f32[R, C]
  %d = sub %x, %b
  return %d
})",
                   "d"));
  // Over every dim: the maximum is a scalar.
  EXPECT_TRUE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %m = reduce_max %x {dims = [0, 1]}
  %b = broadcast %m {dims = []} : f32[R, C]
  %d = sub %x, %b
  return %d
})",
                   "d"));
}

TEST(ValueFactsTest, LookalikesAreNot) {
  // The maximum of another tensor.
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C], %y: f32[R, C]) -> (d) {
  %m = reduce_max %y {dims = [1]}
  %b = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %b
  return %d
})",
                    "d"));
  // A minimum, and a maximum subtracted from the wrong side.
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %m = reduce_min %x {dims = [1]}
  %b = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %b
  return %d
})",
                    "d"));
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %m = reduce_max %x {dims = [1]}
  %b = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %b, %x
  return %d
})",
                    "d"));
  // Maxima of the rows put back along the columns of a square tensor.
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[N, N]) -> (d) {
  %m = reduce_max %x {dims = [1]}
  %b = broadcast %m {dims = [1]} : f32[N, N]
  %d = sub %x, %b
  return %d
})",
                    "d"));
  // Subtrahends defined by ops without operands (an iota, a constant):
  // nothing to look through (the random-graph run once crashed here).
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %i = iota {dim = 1} : f32[R, C]
  %d = sub %x, %i
  return %d
})",
                    "d"));
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (d) {
  %c = constant {value = 1.0} : f32[R, C]
  %d = sub %x, %c
  return %d
})",
                    "d"));
  // The maximum itself.
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (m) {
  %m = reduce_max %x {dims = [1]}
  return %m
})",
                    "m"));
}

TEST(ValueFactsTest, SoftmaxMaximum) {
  EXPECT_TRUE(softmaxMaximum(softmax("", "%y"), "m"));
  // The sum may be a result too: it is NaN in both forms.
  EXPECT_TRUE(softmaxMaximum(softmax("", "%y, %s"), "m"));
  // Results or other uses of the maximum, its difference or exp show it.
  EXPECT_FALSE(softmaxMaximum(softmax("", "%y, %m"), "m"));
  EXPECT_FALSE(softmaxMaximum(softmax("", "%y, %e"), "m"));
  EXPECT_FALSE(softmaxMaximum(softmax("", "%y, %d"), "m"));
  // log-softmax reads the difference again.
  EXPECT_FALSE(softmaxMaximum(softmax("  %l = log %s\n  %lb = broadcast %l {dims = [0]} : "
                                      "f32[R, C]\n  %z = sub %d, %lb\n",
                                      "%z"),
                              "m"));
  EXPECT_FALSE(softmaxMaximum(softmax("  %t = mul %e, %e\n", "%y, %t"), "m"));
  // exp normalized over the other dim.
  EXPECT_FALSE(softmaxMaximum(R"(
func @f(%x: f32[N, N]) -> (y) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[N, N]
  %d = sub %x, %mb : f32[N, N]
  %e = exp %d : f32[N, N]
  %s = reduce_sum %e {dims = [0]}
  %sb = broadcast %s {dims = [1]} : f32[N, N]
  %y = div %e, %sb
  return %y
})",
                              "m"));
  // No normalization at all.
  EXPECT_FALSE(softmaxMaximum(R"(
func @f(%x: f32[R, C]) -> (e) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %mb
  %e = exp %d
  return %e
})",
                              "m"));
}

/// roundedOnlyTo16Bits of %e in `text`'s only function.
std::optional<ElementType> roundedE(const std::string &text) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return std::nullopt;
  const Function &f = *(*m)->functions()[0];
  return roundedOnlyTo16Bits(f, *f.lookup("e"));
}

/// Softmax over f16 or bf16 storage (autocast's), its normalization by
/// `normalize` (a division or the product with a reciprocal), with `extra`.
std::string amp(const std::string &storage, const std::string &normalize,
                const std::string &extra = "", const std::string &results = "%y") {
  std::string names = results;
  names.erase(std::remove(names.begin(), names.end(), '%'), names.end());
  return "func @f(%x16: " + storage + "[R, C]) -> (" + names +
         ") {\n"
         "  %x = cast %x16 {to = f32}\n"
         "  %m = reduce_max %x {dims = [1]}\n"
         "  %mb = broadcast %m {dims = [0]} : f32[R, C]\n"
         "  %d = sub %x, %mb : f32[R, C]\n"
         "  %e = exp %d : f32[R, C]\n"
         "  %s = reduce_sum %e {dims = [1]}\n" +
         (normalize == "div" ? "  %sb = broadcast %s {dims = [0]} : f32[R, C]\n"
                               "  %yf = div %e, %sb\n"
                             : "  %r = reciprocal %s\n"
                               "  %rb = broadcast %r {dims = [0]} : f32[R, C]\n"
                               "  %yf = mul %e, %rb\n") +
         "  %y = cast %yf {to = " + storage + "}\n" + extra + "  return " + results + "\n}\n";
}

TEST(ValueFactsTest, SoftmaxUnderMixedPrecisionIsRoundedTo16Bits) {
  EXPECT_EQ(roundedE(amp("f16", "div")), ElementType::F16);
  EXPECT_EQ(roundedE(amp("f16", "mul")), ElementType::F16);
  EXPECT_EQ(roundedE(amp("bf16", "mul")), ElementType::BF16);
  // A product with any value may follow, before the rounding.
  EXPECT_EQ(roundedE(amp("bf16", "mul", "  %z = mul %yf, %x\n  %z16 = cast %z {to = bf16}\n",
                         "%y, %z16")),
            ElementType::BF16);
  // f16 is the stricter: one f16 result makes it F16.
  EXPECT_EQ(roundedE(amp("bf16", "mul", "  %h = cast %yf {to = f16}\n", "%y, %h")),
            ElementType::F16);
}

TEST(ValueFactsTest, FullPrecisionUsesAreNotRoundedTo16Bits) {
  // f32 results, and the f32 sum as a result.
  EXPECT_EQ(roundedE(softmax("", "%y")), std::nullopt);
  EXPECT_EQ(roundedE(amp("f16", "div", "", "%y, %s")), std::nullopt);
  EXPECT_EQ(roundedE(amp("f16", "div", "  %ys = cast %yf {to = f32}\n", "%y, %ys")), std::nullopt);
  // A sum of exp times values of any sign can cancel.
  EXPECT_EQ(roundedE(amp("f16", "div",
                         "  %w = mul %e, %x\n  %ws = reduce_sum %w {dims = [1]}\n"
                         "  %w16 = cast %ws {to = f16}\n",
                         "%y, %w16")),
            std::nullopt);
  // Anything else, such as a log of the sum (log-softmax).
  EXPECT_EQ(roundedE(amp("f16", "div", "  %l = log %s\n  %l16 = cast %l {to = f16}\n", "%y, %l16")),
            std::nullopt);
}

/// Whether %c, the indices in `body` (ops of a function of %i: i64[N] and
/// %x: f32[3, D]), is clamped into D (dim 1 of %x).
bool clampedIntoD(const std::string &body) {
  std::string text = "func @f(%i: i64[N], %x: f32[3, D]) -> (c) {\n"
                     "  %zero = constant {value = 0} : i64[]\n"
                     "  %zeros = broadcast %zero {dims = []} : i64[N]\n"
                     "  %last = dim_value {dims = [D - 1]} : i64[]\n"
                     "  %lasts = broadcast %last {dims = []} : i64[N]\n" +
                     body + "  return %c\n}\n";
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return false;
  const Function &f = *(*m)->functions()[0];
  const Value *x = f.params()[1].get();
  for (const auto &op : f.ops())
    if (op->result()->name() == "c")
      return isClampedIndex(*op->result(), x->type().dim(1));
  ADD_FAILURE() << "no value %c";
  return false;
}

/// %j, an iota along D, and what its neighbouring taps are clamped with: 1,
/// 0 and D - 1 (%one, %z, %ls).
std::string taps() {
  return "  %j = iota {dim = 0} : i64[D]\n  %one = constant {value = 1} : i64[D]\n"
         "  %z = constant {value = 0} : i64[D]\n"
         "  %l = dim_value {dims = [D - 1]} : i64[]\n"
         "  %ls = broadcast %l {dims = []} : i64[D]\n";
}

TEST(ValueFactsTest, ClampedIndices) {
  EXPECT_TRUE(clampedIntoD("  %a = max %i, %zeros : i64[N]\n  %c = min %a, %lasts : i64[N]\n"));
  EXPECT_TRUE(clampedIntoD("  %a = min %lasts, %i : i64[N]\n  %c = max %zeros, %a : i64[N]\n"));
  // Through reshapes and broadcasts of the clamped value.
  EXPECT_TRUE(clampedIntoD("  %a = max %i, %zeros : i64[N]\n  %b = min %a, %lasts : i64[N]\n"
                           "  %r = reshape %b : i64[1, N]\n"
                           "  %c = broadcast %r {dims = [0, 1]} : i64[2, N]\n"));
  // Literals of 0, and an iota along D itself.
  EXPECT_TRUE(clampedIntoD("  %c = constant {value = 0} : i64[N]\n"));
  EXPECT_TRUE(clampedIntoD("  %c = iota {dim = 0} : i64[D]\n"));
  // A neighbouring tap clamped on the side it moves to (a half-pixel
  // resize's): max(j - 1, 0) and min(j + 1, D - 1) for j an iota along D.
  EXPECT_TRUE(clampedIntoD(taps() + "  %a = sub %j, %one : i64[D]\n  %c = max %a, %z : i64[D]\n"));
  EXPECT_TRUE(clampedIntoD(taps() + "  %a = add %one, %j : i64[D]\n  %c = min %a, %ls : i64[D]\n"));
}

TEST(ValueFactsTest, IndicesClampedOnOneSideOrElsewhereAreNot) {
  EXPECT_FALSE(clampedIntoD("  %c = min %i, %lasts : i64[N]\n"));
  EXPECT_FALSE(clampedIntoD("  %c = max %i, %zeros : i64[N]\n"));
  // min(min(i, 0), D - 1) is at most 0 but may be negative.
  EXPECT_FALSE(clampedIntoD("  %a = min %i, %zeros : i64[N]\n  %c = min %a, %lasts : i64[N]\n"));
  // Clamped into another dim, or above D - 1.
  EXPECT_FALSE(clampedIntoD("  %n = dim_value {dims = [N - 1]} : i64[]\n"
                            "  %ns = broadcast %n {dims = []} : i64[N]\n"
                            "  %a = max %i, %zeros : i64[N]\n  %c = min %a, %ns : i64[N]\n"));
  EXPECT_FALSE(clampedIntoD("  %d = dim_value {dims = [D]} : i64[]\n"
                            "  %ds = broadcast %d {dims = []} : i64[N]\n"
                            "  %a = max %i, %zeros : i64[N]\n  %c = min %a, %ds : i64[N]\n"));
  // A literal may be above a dim whose size is not known; a longer iota.
  EXPECT_FALSE(clampedIntoD("  %c = constant {value = 1} : i64[N]\n"));
  EXPECT_FALSE(clampedIntoD("  %c = iota {dim = 0} : i64[D + 1]\n"));
  // Arithmetic on indices is not followed, but for a shift by a constant
  // towards a clamped side: j + 1 clamped below, j - 1 clamped above, k - j,
  // a shift of unclamped indices, or a shift too long to be a tap's.
  EXPECT_FALSE(clampedIntoD("  %c = add %i, %zeros : i64[N]\n"));
  EXPECT_FALSE(clampedIntoD(taps() + "  %a = add %j, %one : i64[D]\n  %c = max %a, %z : i64[D]\n"));
  EXPECT_FALSE(
      clampedIntoD(taps() + "  %a = sub %j, %one : i64[D]\n  %c = min %a, %ls : i64[D]\n"));
  EXPECT_FALSE(clampedIntoD(taps() + "  %a = sub %one, %j : i64[D]\n  %c = max %a, %z : i64[D]\n"));
  EXPECT_FALSE(clampedIntoD("  %one = constant {value = 1} : i64[N]\n"
                            "  %a = sub %i, %one : i64[N]\n  %c = max %a, %zeros : i64[N]\n"));
  EXPECT_FALSE(clampedIntoD(taps() + "  %far = constant {value = 4294967296} : i64[D]\n"
                                     "  %a = sub %j, %far : i64[D]\n  %c = max %a, %z : i64[D]\n"));
}

} // namespace
} // namespace xs
