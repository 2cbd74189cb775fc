// The reference interpreter on sources and data movement: constant, iota,
// broadcast, reshape, transpose, slice, concat, pad, gather, take_along_axis.

#include "InterpreterTestUtil.h"

namespace xs::testing {
namespace {

using ET = ElementType;

TEST(InterpreterMovement, ScalarConstantSplatsOverASymbolicShape) {
  const char *text = R"(func @f(%x: f32[N, 2]) -> (y) {
  %c = constant {value = 1.5} : f32[N, 2]
  %y = add %x, %c
  return %y
})";
  expectFloats(interpretOne(text, {f32({3, 2}, {0, 1, 2, 3, 4, 5})}), ET::F32, {3, 2},
               {1.5, 2.5, 3.5, 4.5, 5.5, 6.5});
}

TEST(InterpreterMovement, DenseConstantIsRowMajorAndRoundedToItsType) {
  const char *text = R"(func @f() -> (a, b, c) {
  %a = constant {value = dense<[[1, 2, 3], [4, 5, 6]]>} : i8[2, 3]
  %b = constant {value = dense<[16777217, 255]>} : f32[2]
  %c = constant {value = 0.1} : f16[2]
  return %a, %b, %c
})";
  absl::StatusOr<std::vector<HostTensor>> results = interpretText(text, {});
  ASSERT_TRUE(results.ok()) << results.status().message();
  expectInts((*results)[0], ET::I8, {2, 3}, {1, 2, 3, 4, 5, 6});
  // 2^24 + 1 is not an f32: the constant holds 2^24.
  expectFloats((*results)[1], ET::F32, {2}, {16777216, 255});
  // 0.1 in f16 is 1638/16384 = 0.0999755859375.
  expectFloats((*results)[2], ET::F16, {2}, {0.0999755859375, 0.0999755859375});
}

TEST(InterpreterMovement, IotaCountsAlongItsDim) {
  const char *text = R"(func @f() -> (a, b) {
  %a = iota {dim = 1} : i32[2, 3]
  %b = iota {dim = 0} : f32[2, 3]
  return %a, %b
})";
  absl::StatusOr<std::vector<HostTensor>> results = interpretText(text, {});
  ASSERT_TRUE(results.ok()) << results.status().message();
  expectInts((*results)[0], ET::I32, {2, 3}, {0, 1, 2, 0, 1, 2});
  expectFloats((*results)[1], ET::F32, {2, 3}, {0, 0, 0, 1, 1, 1});
}

TEST(InterpreterMovement, BroadcastAddsDimsAndRepeatsSizeOneDims) {
  const char *text = R"(func @f(%x: f32[3], %y: f32[2, 1]) -> (a, b) {
  %a = broadcast %x {dims = [1]} : f32[2, 3]
  %b = broadcast %y {dims = [0, 2]} : f32[2, 2, 3]
  return %a, %b
})";
  absl::StatusOr<std::vector<HostTensor>> results =
      interpretText(text, {f32({3}, {1, 2, 3}), f32({2, 1}, {10, 20})});
  ASSERT_TRUE(results.ok()) << results.status().message();
  expectFloats((*results)[0], ET::F32, {2, 3}, {1, 2, 3, 1, 2, 3});
  expectFloats((*results)[1], ET::F32, {2, 2, 3}, {10, 10, 10, 10, 10, 10, 20, 20, 20, 20, 20, 20});
}

TEST(InterpreterMovement, ReshapeKeepsRowMajorOrder) {
  const char *text = R"(func @f(%x: i64[2, 3]) -> (y) {
  %y = reshape %x : i64[3, 2]
  return %y
})";
  expectInts(interpretOne(text, {i64({2, 3}, {1, 2, 3, 4, 5, 6})}), ET::I64, {3, 2},
             {1, 2, 3, 4, 5, 6});
}

TEST(InterpreterMovement, TransposePermutesDims) {
  const char *text = R"(func @f(%x: f32[2, 3]) -> (y) {
  %y = transpose %x {perm = [1, 0]}
  return %y
})";
  expectFloats(interpretOne(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6})}), ET::F32, {3, 2},
               {1, 4, 2, 5, 3, 6});
  const char *rank3 = R"(func @f(%x: i32[2, 1, 3]) -> (y) {
  %y = transpose %x {perm = [2, 0, 1]}
  return %y
})";
  // y[k, i, j] = x[i, j, k].
  expectInts(interpretOne(rank3, {i32({2, 1, 3}, {1, 2, 3, 4, 5, 6})}), ET::I32, {3, 2, 1},
             {1, 4, 2, 5, 3, 6});
}

TEST(InterpreterMovement, SliceWithStepAndSymbolicLimit) {
  const char *text = R"(func @f(%x: f32[2, S]) -> (y) {
  %y = slice %x {start = [0, 1], limit = [2, S], step = [1, 2]}
  return %y
})";
  // Columns 1 and 3 of a 2x5 input.
  expectFloats(interpretOne(text, {f32({2, 5}, {0, 1, 2, 3, 4, 10, 11, 12, 13, 14})}), ET::F32,
               {2, 2}, {1, 3, 11, 13});
  // With S = 4: columns 1 and 3 again, ceil(3 / 2) = 2.
  expectFloats(interpretOne(text, {f32({2, 4}, {0, 1, 2, 3, 10, 11, 12, 13})}), ET::F32, {2, 2},
               {1, 3, 11, 13});
}

TEST(InterpreterMovement, SliceStartPastTheEndIsARunTimeError) {
  const char *text = R"(func @f(%x: f32[S]) -> (y) {
  %y = slice %x {start = [2], limit = [S]}
  return %y
})";
  // S = 1 makes start 2 > limit 1.
  std::string message = interpretError(text, {f32({1}, {7})});
  EXPECT_NE(message.find("test.xs:2:"), std::string::npos) << message;
}

TEST(InterpreterMovement, ConcatJoinsAlongItsDim) {
  const char *text = R"(func @f(%a: f32[2, 1], %b: f32[2, 2]) -> (y) {
  %y = concat %a, %b {dim = 1}
  return %y
})";
  expectFloats(interpretOne(text, {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})}), ET::F32,
               {2, 3}, {1, 3, 4, 2, 5, 6});
  const char *three = R"(func @f(%a: i8[1], %b: i8[2], %c: i8[1]) -> (y) {
  %y = concat %a, %b, %c {dim = 0}
  return %y
})";
  expectInts(interpretOne(three, {intTensor(ET::I8, {1}, {1}), intTensor(ET::I8, {2}, {2, 3}),
                                  intTensor(ET::I8, {1}, {4})}),
             ET::I8, {4}, {1, 2, 3, 4});
}

TEST(InterpreterMovement, PadConstantEdgeReflect) {
  auto pad = [](std::string_view attrs) {
    return absl::StrCat("func @f(%x: f32[3]) -> (y) {\n  %y = pad %x {", std::string(attrs),
                        "}\n  return %y\n}\n");
  };
  HostTensor x = f32({3}, {1, 2, 3});
  expectFloats(interpretOne(pad("low = [2], high = [1]"), {x}), ET::F32, {6}, {0, 0, 1, 2, 3, 0});
  expectFloats(interpretOne(pad("low = [1], high = [2], value = -1.5"), {x}), ET::F32, {6},
               {-1.5, 1, 2, 3, -1.5, -1.5});
  expectFloats(interpretOne(pad("low = [2], high = [1], mode = edge"), {x}), ET::F32, {6},
               {1, 1, 1, 2, 3, 3});
  expectFloats(interpretOne(pad("low = [2], high = [2], mode = reflect"), {x}), ET::F32, {7},
               {3, 2, 1, 2, 3, 2, 1});
}

TEST(InterpreterMovement, ReflectPadWiderThanASymbolicDimIsARunTimeError) {
  const char *text = R"(func @f(%x: f32[N]) -> (y) {
  %y = pad %x {low = [2], high = [0], mode = reflect}
  return %y
})";
  expectFloats(interpretOne(text, {f32({3}, {1, 2, 3})}), ET::F32, {5}, {3, 2, 1, 2, 3});
  std::string message = interpretError(text, {f32({2}, {1, 2})});
  EXPECT_NE(message.find("test.xs:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("reflect"), std::string::npos) << message;
}

TEST(InterpreterMovement, PadTwoDims) {
  const char *text = R"(func @f(%x: i32[1, 2]) -> (y) {
  %y = pad %x {low = [1, 0], high = [0, 1], value = 9}
  return %y
})";
  expectInts(interpretOne(text, {i32({1, 2}, {1, 2})}), ET::I32, {2, 3}, {9, 9, 9, 1, 2, 9});
}

TEST(InterpreterMovement, GatherTakesWithNegativeIndices) {
  const char *text = R"(func @f(%x: f32[3, 2], %i: i32[2, 2]) -> (y) {
  %y = gather %x, %i {dim = 0}
  return %y
})";
  // Rows 2, 0, -1 (= 2), 1.
  expectFloats(interpretOne(text, {f32({3, 2}, {1, 2, 3, 4, 5, 6}), i32({2, 2}, {2, 0, -1, 1})}),
               ET::F32, {2, 2, 2}, {5, 6, 1, 2, 5, 6, 3, 4});
  const char *inner = R"(func @f(%x: f32[2, 3], %i: i64[2]) -> (y) {
  %y = gather %x, %i {dim = 1}
  return %y
})";
  expectFloats(interpretOne(inner, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2}, {-3, 2})}), ET::F32,
               {2, 2}, {1, 3, 4, 6});
}

TEST(InterpreterMovement, GatherIndexOutOfRangeIsAnErrorAtTheOp) {
  const char *text = R"(func @f(%x: f32[3], %i: i32[2]) -> (y) {
  %y = gather %x, %i {dim = 0}
  return %y
})";
  std::string message = interpretError(text, {f32({3}, {1, 2, 3}), i32({2}, {0, 3})});
  EXPECT_NE(message.find("test.xs:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("index 3"), std::string::npos) << message;
  message = interpretError(text, {f32({3}, {1, 2, 3}), i32({2}, {-4, 0})});
  EXPECT_NE(message.find("index -4"), std::string::npos) << message;
}

TEST(InterpreterMovement, TakeAlongAxisPicksPerRow) {
  const char *text = R"(func @f(%x: f32[2, 3], %i: i64[2, 2]) -> (y) {
  %y = take_along_axis %x, %i {dim = 1}
  return %y
})";
  expectFloats(interpretOne(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2, 2}, {2, 0, -1, 1})}),
               ET::F32, {2, 2}, {3, 1, 6, 5});
  std::string message =
      interpretError(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2, 2}, {0, 0, 0, 7})});
  EXPECT_NE(message.find("index 7"), std::string::npos) << message;
}

} // namespace
} // namespace xs::testing
