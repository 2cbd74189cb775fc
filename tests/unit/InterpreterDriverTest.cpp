// The reference interpreter's driver: binding dims, checking inputs and
// constraints, limits, evaluateOp on its own, and HostTensor conversions.

#include "InterpreterTestUtil.h"

namespace xs::testing {
namespace {

using ET = ElementType;

bool contains(const std::string &s, std::string_view piece) {
  return s.find(piece) != std::string::npos;
}

const char *kAddSameN = R"(func @f(%a: f32[N], %b: f32[N]) -> (y) {
  %y = add %a, %b
  return %y
})";

TEST(InterpreterDriver, RunsAChainAndReturnsParamsAndSeveralResults) {
  const char *text = R"(func @f(%x: f32[N]) -> (a, b, c) {
  %t = mul %x, %x
  %u = neg %t
  %v = exp %u
  return %u, %x, %t
})";
  absl::StatusOr<std::vector<HostTensor>> results = interpretText(text, {f32({2}, {2, -3})});
  ASSERT_TRUE(results.ok()) << results.status().message();
  ASSERT_EQ(results->size(), 3u);
  expectFloats((*results)[0], ET::F32, {2}, {-4, -9});
  expectFloats((*results)[1], ET::F32, {2}, {2, -3});
  expectFloats((*results)[2], ET::F32, {2}, {4, 9});
}

TEST(InterpreterDriver, FloatsAreRoundedAfterEachOpUnlessAskedForF64) {
  // 1 + 2^-30 is not an f32: rounded after the add, (x + e) - x is 0, as
  // compiled code computes it; in f64 throughout it keeps e.
  const char *text = R"(func @f(%x: f32[1], %e: f32[1]) -> (y) {
  %s = add %x, %e
  %y = sub %s, %x
  return %y
})";
  std::vector<HostTensor> inputs = {f32({1}, {1}), f32({1}, {0x1p-30})};
  expectFloats(interpretOne(text, inputs), ET::F32, {1}, {0});
  InterpreterOptions f64;
  f64.roundEachOp = false;
  expectFloats(interpretOne(text, inputs, f64), ET::F32, {1}, {0x1p-30});
}

TEST(InterpreterDriver, F32OverflowIsInfAsInCompiledCode) {
  // Hugging Face's (1 - mask) * finfo(f32).min and x*1e30*1e30/1e30.
  const char *text = R"(func @f(%x: f32[2], %c: f32[2]) -> (y) {
  %p = mul %x, %c
  %q = mul %p, %c
  %y = div %q, %c
  return %y
})";
  std::vector<HostTensor> inputs = {f32({2}, {1, -2}), f32({2}, {1e30, 1e30})};
  expectFloats(interpretOne(text, inputs), ET::F32, {2},
               {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
  InterpreterOptions f64;
  f64.roundEachOp = false;
  expectFloats(interpretOne(text, inputs, f64), ET::F32, {2}, {1e30, -2e30}, 1e-7);
}

TEST(InterpreterDriver, BindDimsBindsSymbolsFromParameters) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(kAddSameN, "test.xs");
  ASSERT_TRUE(module.ok()) << module.status().message();
  absl::StatusOr<DimBindings> bindings =
      bindDims(*(*module)->functions().front(), {f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})});
  ASSERT_TRUE(bindings.ok()) << bindings.status().message();
  EXPECT_EQ(bindings->size(), 1u);
  EXPECT_EQ(bindings->at("N"), 3);
}

TEST(InterpreterDriver, ConflictingSymbolIsAnErrorNamingTheParameter) {
  std::string message = interpretError(kAddSameN, {f32({2}, {1, 2}), f32({3}, {1, 2, 3})});
  EXPECT_TRUE(contains(message, "test.xs:1:")) << message;
  EXPECT_TRUE(contains(message, "%b")) << message;
  EXPECT_TRUE(contains(message, "N = 2")) << message;
}

TEST(InterpreterDriver, WrongInputCountTypeAndRankAreErrors) {
  EXPECT_TRUE(contains(interpretError(kAddSameN, {f32({2}, {1, 2})}), "takes 2 inputs"));
  std::string message = interpretError(kAddSameN, {f32({2}, {1, 2}), i32({2}, {1, 2})});
  EXPECT_TRUE(contains(message, "%b")) << message;
  EXPECT_TRUE(contains(message, "i32[2]")) << message;
  message = interpretError(kAddSameN, {f32({2}, {1, 2}), f32({1, 2}, {1, 2})});
  EXPECT_TRUE(contains(message, "rank")) << message;
}

TEST(InterpreterDriver, WrongInputShapeForAConstantOrExpressionDim) {
  const char *text = R"(func @f(%x: f32[3, N]) -> (y) {
  %y = neg %x
  return %y
})";
  std::string message = interpretError(text, {f32({4, 1}, {1, 2, 3, 4})});
  EXPECT_TRUE(contains(message, "%x")) << message;
  EXPECT_TRUE(contains(message, "dim 0")) << message;
  const char *expr = R"(func @f(%x: f32[N], %y: f32[N + 1]) -> (r) {
  %r = neg %y
  return %r
})";
  message = interpretError(expr, {f32({2}, {1, 2}), f32({4}, {1, 2, 3, 4})});
  EXPECT_TRUE(contains(message, "%y")) << message;
  EXPECT_TRUE(contains(message, "N + 1")) << message;
}

TEST(InterpreterDriver, UnboundSymbolIsAnErrorAtTheOp) {
  const char *text = R"(func @f(%x: f32[N]) -> (y) {
  %y = constant {value = 1.0} : f32[K]
  return %y
})";
  std::string message = interpretError(text, {f32({1}, {1})});
  EXPECT_TRUE(contains(message, "test.xs:2:")) << message;
  EXPECT_TRUE(contains(message, "K")) << message;
}

TEST(InterpreterDriver, ViolatedWhereConstraintIsAnError) {
  const char *text = R"(func @f(%x: f32[N]) -> (y) where N % 2 == 0, N <= 4 {
  %y = neg %x
  return %y
})";
  expectFloats(interpretOne(text, {f32({2}, {1, 2})}), ET::F32, {2}, {-1, -2});
  std::string message = interpretError(text, {f32({3}, {1, 2, 3})});
  EXPECT_TRUE(contains(message, "test.xs:1:")) << message;
  EXPECT_TRUE(contains(message, "N")) << message;
  message = interpretError(text, {f32({6}, {1, 2, 3, 4, 5, 6})});
  EXPECT_TRUE(contains(message, "N")) << message;
}

TEST(InterpreterDriver, TensorOverTheElementLimitIsAnErrorAtTheOp) {
  const char *text = R"(func @f(%x: f32[N]) -> (y) {
  %y = broadcast %x {dims = [1]} : f32[N, N]
  return %y
})";
  InterpreterOptions options;
  options.maxElementsPerTensor = 10;
  absl::StatusOr<std::vector<HostTensor>> small =
      interpretText(text, {f32({3}, {1, 2, 3})}, options);
  ASSERT_TRUE(small.ok()) << small.status().message();
  expectFloats(small->front(), ET::F32, {3, 3}, {1, 2, 3, 1, 2, 3, 1, 2, 3});
  std::string message = interpretError(text, {f32({4}, {1, 2, 3, 4})}, options);
  EXPECT_TRUE(contains(message, "test.xs:2:")) << message;
  EXPECT_TRUE(contains(message, "limit")) << message;
}

TEST(InterpreterDriver, EvaluateOpNeedsKnownResultTypes) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(kAddSameN, "test.xs");
  ASSERT_TRUE(module.ok()) << module.status().message();
  const Function &function = *(*module)->functions().front();
  HostTensor a = f32({1}, {1});
  absl::StatusOr<HostTensor> result = evaluateOp(*function.ops().front(), {&a, &a}, {{"N", 1}});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(contains(std::string(result.status().message()), "shape inference"));
}

TEST(InterpreterDriver, EvaluateOpOnConcreteOperands) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(kAddSameN, "test.xs");
  ASSERT_TRUE(module.ok()) << module.status().message();
  Function &function = *(*module)->functions().front();
  ASSERT_TRUE(runShapeInference(function).ok());
  HostTensor a = f32({2}, {1, 2});
  HostTensor b = f32({2}, {10, 20});
  absl::StatusOr<HostTensor> result = evaluateOp(*function.ops().front(), {&a, &b}, {{"N", 2}});
  ASSERT_TRUE(result.ok()) << result.status().message();
  expectFloats(*result, ET::F32, {2}, {11, 22});
  // Operands that contradict the operand types are reported, not read past.
  HostTensor shortOne = f32({1}, {1});
  result = evaluateOp(*function.ops().front(), {&a, &shortOne}, {{"N", 2}});
  EXPECT_FALSE(result.ok());
}

TEST(HostTensorTest, ConversionsRoundAndWrap) {
  HostTensor h(ET::F16, {2});
  h.setDouble(0, 1 + 0x1p-11);
  h.setInt(1, 2049); // f16 spacing at 2048 is 2; 2049 ties to the even 2048
  EXPECT_EQ(h.floats(), (std::vector<double>{1, 2048}));
  HostTensor i(ET::I8, {3});
  i.setDouble(0, -130.9);
  i.setInt(1, 255);
  i.setDouble(2, kNaN);
  EXPECT_EQ(i.ints(), (std::vector<int64_t>{126, -1, 0}));
  EXPECT_EQ(i.getDouble(1), -1.0);
  HostTensor b(ET::I1, {2});
  b.setDouble(0, 0.25);
  b.setInt(1, 4);
  EXPECT_EQ(b.ints(), (std::vector<int64_t>{1, 1}));
  HostTensor f(ET::F32, {1});
  f.setDouble(0, -7.9);
  EXPECT_EQ(f.getInt(0), -7);
}

TEST(HostTensorTest, ShapeStridesAndTypeString) {
  HostTensor t(ET::BF16, {2, 3, 4});
  EXPECT_EQ(t.numElements(), 24);
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(t.typeStr(), "bf16[2, 3, 4]");
  EXPECT_EQ(t.floats().size(), 24u);
  HostTensor scalar(ET::I64, {});
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.typeStr(), "i64[]");
}

} // namespace
} // namespace xs::testing
