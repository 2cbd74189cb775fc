// The reference interpreter on element-wise ops: unary, binary, compare,
// select and cast, against hand-computed values.

#include "InterpreterTestUtil.h"

namespace xs::testing {
namespace {

using ET = ElementType;

std::string typeName(ET t) { return std::string(elementTypeName(t)); }

/// `func @f(%x: T[n]) -> (y) { %y = op %x ... }`.
std::string unaryFn(std::string_view op, ET type, int64_t n, std::string_view attrs = "") {
  return absl::StrCat("func @f(%x: ", typeName(type), "[", n,
                      "]) -> (y) {\n  %y = ", std::string(op), " %x ", std::string(attrs),
                      "\n  return %y\n}\n");
}

std::string binaryFn(std::string_view op, ET type, int64_t n, std::string_view attrs = "") {
  return absl::StrCat("func @f(%a: ", typeName(type), "[", n, "], %b: ", typeName(type), "[", n,
                      "]) -> (y) {\n  %y = ", std::string(op), " %a, %b ", std::string(attrs),
                      "\n  return %y\n}\n");
}

HostTensor unaryF32(std::string_view op, std::vector<double> x) {
  int64_t n = static_cast<int64_t>(x.size());
  return interpretOne(unaryFn(op, ET::F32, n), {f32({n}, std::move(x))});
}

HostTensor binaryF32(std::string_view op, std::vector<double> a, std::vector<double> b) {
  int64_t n = static_cast<int64_t>(a.size());
  return interpretOne(binaryFn(op, ET::F32, n), {f32({n}, std::move(a)), f32({n}, std::move(b))});
}

HostTensor binaryInt(std::string_view op, ET type, std::vector<int64_t> a, std::vector<int64_t> b) {
  int64_t n = static_cast<int64_t>(a.size());
  return interpretOne(binaryFn(op, type, n),
                      {intTensor(type, {n}, std::move(a)), intTensor(type, {n}, std::move(b))});
}

HostTensor unaryInt(std::string_view op, ET type, std::vector<int64_t> x) {
  int64_t n = static_cast<int64_t>(x.size());
  return interpretOne(unaryFn(op, type, n), {intTensor(type, {n}, std::move(x))});
}

TEST(InterpreterElementwise, NegAbsSignOnFloats) {
  expectFloats(unaryF32("neg", {-1.5, 0, 2.5, kNaN}), ET::F32, {4}, {1.5, 0, -2.5, kNaN});
  expectFloats(unaryF32("abs", {-1.5, 0, 2.5, -kInf}), ET::F32, {4}, {1.5, 0, 2.5, kInf});
  expectFloats(unaryF32("sign", {-1.5, 0, 2.5, kNaN}), ET::F32, {4}, {-1, 0, 1, kNaN});
}

TEST(InterpreterElementwise, NegAbsSignWrapOnIntegers) {
  // -(-128) and |-128| do not fit i8 and wrap back to -128.
  expectInts(unaryInt("neg", ET::I8, {-128, 5, 0}), ET::I8, {3}, {-128, -5, 0});
  expectInts(unaryInt("abs", ET::I8, {-128, -3, 4}), ET::I8, {3}, {-128, 3, 4});
  expectInts(unaryInt("sign", ET::I32, {-7, 0, 9}), ET::I32, {3}, {-1, 0, 1});
  expectInts(unaryInt("neg", ET::U8, {5, 0}), ET::U8, {2}, {251, 0});
}

TEST(InterpreterElementwise, TranscendentalFunctions) {
  const double e = std::exp(1.0);
  expectFloats(unaryF32("exp", {0, 1, -kInf}), ET::F32, {3}, {1, e, 0}, 1e-15);
  expectFloats(unaryF32("log", {1, e, 0, -1}), ET::F32, {4}, {0, 1, -kInf, kNaN}, 1e-15);
  expectFloats(unaryF32("log1p", {0, e - 1}), ET::F32, {2}, {0, 1}, 1e-15);
  expectFloats(unaryF32("sqrt", {4, 2.25, -1}), ET::F32, {3}, {2, 1.5, kNaN});
  expectFloats(unaryF32("rsqrt", {4, 0.25, 0}), ET::F32, {3}, {0.5, 2, kInf});
  expectFloats(unaryF32("tanh", {0, 0.5, 40}), ET::F32, {3}, {0, 0.46211715726000974, 1}, 1e-15);
  // sigmoid(log 3) = 1 / (1 + 1/3) = 0.75.
  expectFloats(unaryF32("sigmoid", {0, std::log(3.0)}), ET::F32, {2}, {0.5, 0.75}, 1e-15);
  expectFloats(unaryF32("erf", {0, 1, -1}), ET::F32, {3},
               {0, 0.8427007929497149, -0.8427007929497149}, 1e-15);
  expectFloats(unaryF32("sin", {0, M_PI / 2}), ET::F32, {2}, {0, 1}, 1e-15);
  expectFloats(unaryF32("cos", {0, M_PI}), ET::F32, {2}, {1, -1}, 1e-15);
  expectFloats(unaryF32("reciprocal", {4, -0.5, 0}), ET::F32, {3}, {0.25, -2, kInf});
}

TEST(InterpreterElementwise, FloorCeilRoundHalfToEven) {
  expectFloats(unaryF32("floor", {-1.5, 1.5, 2}), ET::F32, {3}, {-2, 1, 2});
  expectFloats(unaryF32("ceil", {-1.5, 1.5, 2}), ET::F32, {3}, {-1, 2, 2});
  expectFloats(unaryF32("round", {0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, -2.6, kNaN}), ET::F32, {9},
               {0, 2, 2, 0, -2, 2, 3, -3, kNaN});
}

TEST(InterpreterElementwise, IsNanIsInfGiveI1) {
  expectInts(interpretOne(unaryFn("is_nan", ET::F32, 4), {f32({4}, {kNaN, 1, kInf, -kInf})}),
             ET::I1, {4}, {1, 0, 0, 0});
  expectInts(interpretOne(unaryFn("is_inf", ET::F32, 4), {f32({4}, {kNaN, 1, kInf, -kInf})}),
             ET::I1, {4}, {0, 0, 1, 1});
}

TEST(InterpreterElementwise, NotIsLogicalOnI1AndBitwiseOnIntegers) {
  expectInts(unaryInt("not", ET::I1, {0, 1}), ET::I1, {2}, {1, 0});
  expectInts(unaryInt("not", ET::I8, {0, 5, -1}), ET::I8, {3}, {-1, -6, 0});
  expectInts(unaryInt("not", ET::U8, {0, 5}), ET::U8, {2}, {255, 250});
}

TEST(InterpreterElementwise, FloatArithmetic) {
  expectFloats(binaryF32("add", {1, 2.5, kInf}, {2, -0.5, -kInf}), ET::F32, {3}, {3, 2, kNaN});
  expectFloats(binaryF32("sub", {1, 2.5}, {2, -0.5}), ET::F32, {2}, {-1, 3});
  expectFloats(binaryF32("mul", {1.5, -2}, {2, 0.25}), ET::F32, {2}, {3, -0.5});
  expectFloats(binaryF32("div", {1, -3, 0}, {4, 0, 0}), ET::F32, {3}, {0.25, -kInf, kNaN});
  // rem has the sign of the dividend (fmod).
  expectFloats(binaryF32("rem", {-7.5, 7.5, 1}, {2, -2, 0}), ET::F32, {3}, {-1.5, 1.5, kNaN});
  expectFloats(binaryF32("pow", {2, 4, -8}, {10, 0.5, 1.0 / 3}), ET::F32, {3}, {1024, 2, kNaN});
}

TEST(InterpreterElementwise, FloatMaxMinPropagateNaN) {
  expectFloats(binaryF32("max", {kNaN, 1, 3, -1}, {1, kNaN, 2, -kInf}), ET::F32, {4},
               {kNaN, kNaN, 3, -1});
  expectFloats(binaryF32("min", {kNaN, 1, 3, -1}, {1, kNaN, 2, -kInf}), ET::F32, {4},
               {kNaN, kNaN, 2, -kInf});
}

TEST(InterpreterElementwise, IntegerArithmeticWrapsToWidth) {
  expectInts(binaryInt("add", ET::I8, {100, -100}, {100, -100}), ET::I8, {2}, {-56, 56});
  expectInts(binaryInt("add", ET::U8, {200}, {100}), ET::U8, {1}, {44});
  expectInts(binaryInt("sub", ET::U8, {1}, {2}), ET::U8, {1}, {255});
  expectInts(binaryInt("mul", ET::I32, {65536, -3}, {65536, 7}), ET::I32, {2}, {0, -21});
  expectInts(binaryInt("add", ET::I64, {INT64_MAX}, {1}), ET::I64, {1}, {INT64_MIN});
  expectInts(binaryInt("max", ET::I32, {-5, 7}, {3, 2}), ET::I32, {2}, {3, 7});
  expectInts(binaryInt("min", ET::I32, {-5, 7}, {3, 2}), ET::I32, {2}, {-5, 2});
}

TEST(InterpreterElementwise, IntegerDivRemTruncateTowardZero) {
  expectInts(binaryInt("div", ET::I32, {7, -7, 7, -7}, {2, 2, -2, -2}), ET::I32, {4},
             {3, -3, -3, 3});
  expectInts(binaryInt("rem", ET::I32, {7, -7, 7, -7}, {2, 2, -2, -2}), ET::I32, {4},
             {1, -1, 1, -1});
  // -128 / -1 = 128 wraps to -128 in i8; INT64_MIN / -1 wraps the same way.
  expectInts(binaryInt("div", ET::I8, {-128}, {-1}), ET::I8, {1}, {-128});
  expectInts(binaryInt("rem", ET::I8, {-128}, {-1}), ET::I8, {1}, {0});
  expectInts(binaryInt("div", ET::I64, {INT64_MIN}, {-1}), ET::I64, {1}, {INT64_MIN});
}

TEST(InterpreterElementwise, IntegerDivisionByZeroIsAnErrorAtTheOp) {
  std::string text = binaryFn("div", ET::I32, 2);
  std::string message = interpretError(text, {i32({2}, {4, 5}), i32({2}, {2, 0})});
  EXPECT_NE(message.find("test.xs:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
  EXPECT_NE(message.find("element 1"), std::string::npos) << message;
  message = interpretError(binaryFn("rem", ET::U8, 1),
                           {intTensor(ET::U8, {1}, {3}), intTensor(ET::U8, {1}, {0})});
  EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
}

TEST(InterpreterElementwise, IntegerPow) {
  // 2^31 wraps to INT32_MIN; negative powers truncate 1 / a^-b toward zero.
  expectInts(binaryInt("pow", ET::I32, {3, 2, 2, -1, 1, -2}, {4, 31, -1, -3, -5, 3}), ET::I32, {6},
             {81, INT32_MIN, 0, -1, 1, -8});
  std::string message =
      interpretError(binaryFn("pow", ET::I32, 1), {i32({1}, {0}), i32({1}, {-1})});
  EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
}

TEST(InterpreterElementwise, LogicalOpsOnI1AndIntegers) {
  expectInts(binaryInt("and", ET::I1, {0, 0, 1, 1}, {0, 1, 0, 1}), ET::I1, {4}, {0, 0, 0, 1});
  expectInts(binaryInt("or", ET::I1, {0, 0, 1, 1}, {0, 1, 0, 1}), ET::I1, {4}, {0, 1, 1, 1});
  expectInts(binaryInt("xor", ET::I1, {0, 0, 1, 1}, {0, 1, 0, 1}), ET::I1, {4}, {0, 1, 1, 0});
  expectInts(binaryInt("and", ET::I32, {12, -1}, {10, 6}), ET::I32, {2}, {8, 6});
  expectInts(binaryInt("or", ET::I32, {12}, {10}), ET::I32, {1}, {14});
  expectInts(binaryInt("xor", ET::I8, {12, -1}, {10, 1}), ET::I8, {2}, {6, -2});
}

TEST(InterpreterElementwise, CompareWithNaNIsFalseExceptNe) {
  std::vector<double> a = {1, 2, kNaN, 3};
  std::vector<double> b = {2, 2, kNaN, 1};
  auto run = [&](std::string_view dir) {
    return interpretOne(
        binaryFn("compare", ET::F32, 4, absl::StrCat("{dir = ", std::string(dir), "}")),
        {f32({4}, a), f32({4}, b)});
  };
  expectInts(run("eq"), ET::I1, {4}, {0, 1, 0, 0});
  expectInts(run("ne"), ET::I1, {4}, {1, 0, 1, 1});
  expectInts(run("lt"), ET::I1, {4}, {1, 0, 0, 0});
  expectInts(run("le"), ET::I1, {4}, {1, 1, 0, 0});
  expectInts(run("gt"), ET::I1, {4}, {0, 0, 0, 1});
  expectInts(run("ge"), ET::I1, {4}, {0, 1, 0, 1});
  expectInts(interpretOne(binaryFn("compare", ET::I64, 3, "{dir = lt}"),
                          {i64({3}, {-5, 4, INT64_MIN}), i64({3}, {3, 4, INT64_MAX})}),
             ET::I1, {3}, {1, 0, 1});
}

TEST(InterpreterElementwise, SelectPicksFirstWhereConditionHolds) {
  const char *text = R"(func @f(%c: i1[3], %a: f32[3], %b: f32[3]) -> (y) {
  %y = select %c, %a, %b
  return %y
})";
  expectFloats(interpretOne(text, {intTensor(ET::I1, {3}, {1, 0, 1}), f32({3}, {1, 2, 3}),
                                   f32({3}, {-1, -2, -3})}),
               ET::F32, {3}, {1, -2, 3});
}

HostTensor castF32(std::vector<double> x, ET to) {
  int64_t n = static_cast<int64_t>(x.size());
  return interpretOne(unaryFn("cast", ET::F32, n, absl::StrCat("{to = ", typeName(to), "}")),
                      {f32({n}, std::move(x))});
}

TEST(InterpreterElementwise, CastFloatToFloatRoundsToNearestEven) {
  // f16 has 10 mantissa bits: 1 + 2^-11 is a tie between 1 and 1 + 2^-10 and
  // goes to the even 1; 1 + 3*2^-11 goes to 1 + 2^-9. 65520 is the tie
  // between 65504 (max) and 65536, rounding to even overflows to inf.
  expectFloats(castF32({1 + 0x1p-11, 1 + 3 * 0x1p-11, 65520, -70000, 0x1p-25, kNaN}, ET::F16),
               ET::F16, {6}, {1, 1 + 0x1p-9, kInf, -kInf, 0, kNaN});
  // bf16 has 7 mantissa bits.
  expectFloats(castF32({1 + 0x1p-8, 1 + 3 * 0x1p-8, 3.0}, ET::BF16), ET::BF16, {3},
               {1, 1 + 0x1p-6, 3});
  expectFloats(
      interpretOne(unaryFn("cast", ET::F64, 1, "{to = f32}"), {floatTensor(ET::F64, {1}, {0.1})}),
      ET::F32, {1}, {0.100000001490116119384765625});
}

TEST(InterpreterElementwise, CastFloatToIntegerTruncatesAndWraps) {
  expectInts(castF32({2.7, -2.7, kNaN, 300.5, -129}, ET::I8), ET::I8, {5}, {2, -2, 0, 44, 127});
  expectInts(castF32({-1.5, 255.9}, ET::U8), ET::U8, {2}, {255, 255});
  expectInts(castF32({0x1p33 + 5}, ET::I32), ET::I32, {1}, {5});
}

TEST(InterpreterElementwise, CastToI1IsNotEqualZero) {
  expectInts(castF32({0, 0.5, -2, kNaN}, ET::I1), ET::I1, {4}, {0, 1, 1, 1});
  expectInts(interpretOne(unaryFn("cast", ET::I32, 3, "{to = i1}"), {i32({3}, {0, 7, -256})}),
             ET::I1, {3}, {0, 1, 1});
}

TEST(InterpreterElementwise, CastBetweenIntegersWraps) {
  expectInts(interpretOne(unaryFn("cast", ET::I32, 3, "{to = u8}"), {i32({3}, {300, -1, 255})}),
             ET::U8, {3}, {44, 255, 255});
  expectInts(interpretOne(unaryFn("cast", ET::I32, 3, "{to = i8}"), {i32({3}, {300, -1, 255})}),
             ET::I8, {3}, {44, -1, -1});
  expectInts(
      interpretOne(unaryFn("cast", ET::U8, 1, "{to = i64}"), {intTensor(ET::U8, {1}, {200})}),
      ET::I64, {1}, {200});
}

TEST(InterpreterElementwise, CastIntegerToFloatRoundsOnce) {
  // f32 holds 24 significant bits: 2^24 + 1 rounds to 2^24, and the tie
  // 2^24 + 3 rounds to the even 2^24 + 4.
  expectFloats(
      interpretOne(unaryFn("cast", ET::I32, 2, "{to = f32}"), {i32({2}, {16777217, 16777219})}),
      ET::F32, {2}, {16777216, 16777220});
  expectFloats(
      interpretOne(unaryFn("cast", ET::I1, 2, "{to = f16}"), {intTensor(ET::I1, {2}, {0, 1})}),
      ET::F16, {2}, {0, 1});
  // 2^60 + 2^52 + 1 is just above the bf16 tie 2^60 + 2^52: rounds up once
  // (rounding through f64 first would lose the +1 and tie to even, down).
  expectFloats(interpretOne(unaryFn("cast", ET::I64, 1, "{to = bf16}"),
                            {i64({1}, {(int64_t(1) << 60) + (int64_t(1) << 52) + 1})}),
               ET::BF16, {1}, {0x1p60 + 0x1p53});
}

} // namespace
} // namespace xs::testing
