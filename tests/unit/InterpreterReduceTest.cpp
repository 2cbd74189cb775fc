// The reference interpreter on reductions (reduce_*, argmax, argmin) and dot.

#include "InterpreterTestUtil.h"

namespace xs::testing {
namespace {

using ET = ElementType;

std::string reduceFn(std::string_view op, std::string_view paramType, std::string_view attrs) {
  return absl::StrCat("func @f(%x: ", std::string(paramType),
                      ") -> (y) {\n  %y = ", std::string(op), " %x {", std::string(attrs),
                      "}\n  return %y\n}\n");
}

TEST(InterpreterReduce, SumOverOneOrSeveralDims) {
  expectFloats(interpretOne(reduceFn("reduce_sum", "f32[2, 3]", "dims = [1]"),
                            {f32({2, 3}, {1, 2, 3, 4, 5, 6})}),
               ET::F32, {2}, {6, 15});
  // Over dims 0 and 2 of a 2x2x2 counting tensor: j = 0 sums 1+2+5+6.
  expectFloats(interpretOne(reduceFn("reduce_sum", "f32[2, 2, 2]", "dims = [0, 2]"),
                            {f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}),
               ET::F32, {2}, {14, 22});
  expectFloats(interpretOne(reduceFn("reduce_sum", "f32[2, 2]", "dims = [0, 1]"),
                            {f32({2, 2}, {1, 2, 3, 4})}),
               ET::F32, {}, {10});
}

TEST(InterpreterReduce, IntegerSumAndProdWrap) {
  expectInts(interpretOne(reduceFn("reduce_sum", "i8[3]", "dims = [0]"),
                          {intTensor(ET::I8, {3}, {100, 100, 100})}),
             ET::I8, {}, {44});
  expectInts(
      interpretOne(reduceFn("reduce_prod", "i32[2]", "dims = [0]"), {i32({2}, {65536, 65536})}),
      ET::I32, {}, {0});
  expectInts(interpretOne(reduceFn("reduce_prod", "i64[2, 2]", "dims = [1]"),
                          {i64({2, 2}, {-3, 5, 7, 2})}),
             ET::I64, {2}, {-15, 14});
}

TEST(InterpreterReduce, FloatProd) {
  expectFloats(
      interpretOne(reduceFn("reduce_prod", "f32[4]", "dims = [0]"), {f32({4}, {1, 2, 3, 4})}),
      ET::F32, {}, {24});
}

TEST(InterpreterReduce, MaxAndMinPropagateNaN) {
  HostTensor x = f32({2, 3}, {1, kNaN, 3, 4, 5, -6});
  expectFloats(interpretOne(reduceFn("reduce_max", "f32[2, 3]", "dims = [1]"), {x}), ET::F32, {2},
               {kNaN, 5});
  expectFloats(interpretOne(reduceFn("reduce_min", "f32[2, 3]", "dims = [1]"), {x}), ET::F32, {2},
               {kNaN, -6});
  expectInts(interpretOne(reduceFn("reduce_max", "i32[2, 2]", "dims = [0]"),
                          {i32({2, 2}, {-1, 5, 3, -7})}),
             ET::I32, {2}, {3, 5});
}

TEST(InterpreterReduce, EmptyReductionsGiveTheIdentity) {
  HostTensor empty = f32({2, 0}, {});
  auto run = [&](std::string_view op) {
    return interpretOne(reduceFn(op, "f32[2, N]", "dims = [1]"), {empty});
  };
  expectFloats(run("reduce_sum"), ET::F32, {2}, {0, 0});
  expectFloats(run("reduce_prod"), ET::F32, {2}, {1, 1});
  expectFloats(run("reduce_max"), ET::F32, {2}, {-kInf, -kInf});
  expectFloats(run("reduce_min"), ET::F32, {2}, {kInf, kInf});
  HostTensor emptyI8 = intTensor(ET::I8, {0}, {});
  expectInts(interpretOne(reduceFn("reduce_max", "i8[N]", "dims = [0]"), {emptyI8}), ET::I8, {},
             {-128});
  expectInts(interpretOne(reduceFn("reduce_min", "i8[N]", "dims = [0]"), {emptyI8}), ET::I8, {},
             {127});
  HostTensor emptyU8 = intTensor(ET::U8, {0}, {});
  expectInts(interpretOne(reduceFn("reduce_min", "u8[N]", "dims = [0]"), {emptyU8}), ET::U8, {},
             {255});
  expectInts(interpretOne(reduceFn("reduce_prod", "u8[N]", "dims = [0]"), {emptyU8}), ET::U8, {},
             {1});
}

TEST(InterpreterReduce, ArgMaxArgMinGiveTheFirstExtreme) {
  HostTensor x = f32({3, 3}, {1, 3, 3, 2, 1, 1, 0, kNaN, kNaN});
  expectInts(interpretOne(reduceFn("argmax", "f32[3, 3]", "dim = 1"), {x}), ET::I64, {3},
             {1, 0, 1});
  expectInts(interpretOne(reduceFn("argmin", "f32[3, 3]", "dim = 1"), {x}), ET::I64, {3},
             {0, 1, 1});
  // Along dim 0: column 1 holds 3, 1, NaN; NaN counts as the extreme.
  expectInts(interpretOne(reduceFn("argmax", "f32[3, 3]", "dim = 0"), {x}), ET::I64, {3},
             {1, 2, 2});
  expectInts(interpretOne(reduceFn("argmin", "i32[4]", "dim = 0"), {i32({4}, {5, -2, 7, -2})}),
             ET::I64, {}, {1});
}

TEST(InterpreterReduce, ArgMaxOfAnEmptyDimIsAnError) {
  std::string message =
      interpretError(reduceFn("argmax", "f32[2, N]", "dim = 1"), {f32({2, 0}, {})});
  EXPECT_NE(message.find("test.xs:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("empty"), std::string::npos) << message;
}

std::string dotFn(std::string_view a, std::string_view b) {
  return absl::StrCat("func @f(%a: ", std::string(a), ", %b: ", std::string(b),
                      ") -> (y) {\n  %y = dot %a, %b\n  return %y\n}\n");
}

TEST(InterpreterDot, MatrixProduct) {
  expectFloats(interpretOne(dotFn("f32[2, 3]", "f32[3, 2]"),
                            {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {7, 8, 9, 10, 11, 12})}),
               ET::F32, {2, 2}, {58, 64, 139, 154});
}

TEST(InterpreterDot, BatchedProductWithSymbolicBatch) {
  expectFloats(interpretOne(dotFn("f32[B, 1, 2]", "f32[B, 2, 1]"),
                            {f32({2, 1, 2}, {1, 2, 3, 4}), f32({2, 2, 1}, {5, 6, 7, 8})}),
               ET::F32, {2, 1, 1}, {17, 53});
}

TEST(InterpreterDot, IntegerProductWraps) {
  expectInts(interpretOne(dotFn("i8[1, 2]", "i8[2, 1]"), {intTensor(ET::I8, {1, 2}, {100, 100}),
                                                          intTensor(ET::I8, {2, 1}, {1, 1})}),
             ET::I8, {1, 1}, {-56});
}

} // namespace
} // namespace xs::testing
