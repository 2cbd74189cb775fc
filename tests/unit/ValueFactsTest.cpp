// isAtMostItsMaximum: exactly the subtractions of a maximum broadcast back
// over the elements it was taken from, and nothing that only looks alike.

#include <string>

#include "ir/Parser.h"
#include "ir/ValueFacts.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

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
  // The maximum itself.
  EXPECT_FALSE(fact(R"(
func @f(%x: f32[R, C]) -> (m) {
  %m = reduce_max %x {dims = [1]}
  return %m
})",
                    "m"));
}

} // namespace
} // namespace xs
