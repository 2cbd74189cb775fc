// The runtime running real compiled kernels (planner + backend via the
// driver): every example against the reference interpreter on every device
// present, and on the CPU one executable from four threads at once, numeric
// corner cases and input checks on a planned function.

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "driver/Compiler.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/Tensor.h"
#include "tests/unit/SourceDir.h"
#include "tests/unit/TestDevices.h"
#include "tools/common/TensorCompare.h"
#include "transforms/Pass.h"
#include "transforms/ShapeInference.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

struct Compiled {
  std::unique_ptr<Module> original; // shape inference only: the oracle's input
  std::unique_ptr<Module> optimized;
  std::shared_ptr<Executable> executable;
};

Compiled compileText(const std::string &text, const CompileOptions &options = {}) {
  Compiled c;
  absl::StatusOr<std::unique_ptr<Module>> original = parseModule(text, "test.xs");
  absl::StatusOr<std::unique_ptr<Module>> optimized = parseModule(text, "test.xs");
  EXPECT_TRUE(original.ok() && optimized.ok()) << original.status();
  if (!original.ok() || !optimized.ok())
    return c;
  c.original = *std::move(original);
  c.optimized = *std::move(optimized);
  EXPECT_TRUE(runShapeInference(*c.original->functions().front()).ok());
  absl::Status pipeline = runPipeline(*c.optimized, defaultPipeline(), {});
  EXPECT_TRUE(pipeline.ok()) << pipeline;
  if (!pipeline.ok())
    return c;
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      compileFunction(*c.optimized->functions().front(), options);
  EXPECT_TRUE(executable.ok()) << executable.status();
  if (executable.ok())
    c.executable = *executable;
  return c;
}

std::string readExample(const std::string &name) {
  std::ifstream in(testSourceDir() + "/examples/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Random f32 inputs for `function` at `dims`.
std::vector<HostTensor> randomInputs(const Function &function, const DimBindings &dims,
                                     unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> values(-2.0, 2.0);
  std::vector<HostTensor> inputs;
  for (size_t p = 0; p < function.params().size(); ++p) {
    const TensorType &type = function.param(p)->type();
    std::vector<int64_t> shape;
    for (const DimExpr &d : type.shape())
      shape.push_back(*d.evaluate(dims));
    HostTensor t(type.elementType(), shape);
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.setDouble(i, values(rng));
    inputs.push_back(std::move(t));
  }
  return inputs;
}

/// Runs the executable and compares every result with the interpreter.
void expectMatchesInterpreter(const Compiled &c, const std::vector<HostTensor> &inputs) {
  absl::StatusOr<std::vector<HostTensor>> expected =
      interpret(*c.original->functions().front(), inputs);
  ASSERT_TRUE(expected.ok()) << expected.status();
  std::vector<Tensor> deviceInputs;
  std::vector<TensorView> views;
  for (const HostTensor &input : inputs)
    deviceInputs.push_back(toTensor(input));
  for (const Tensor &t : deviceInputs)
    views.push_back(t.view());
  absl::StatusOr<std::vector<Tensor>> outputs = c.executable->run(views);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(outputs->size(), expected->size());
  for (size_t r = 0; r < expected->size(); ++r) {
    HostTensor actual = toHostTensor((*outputs)[r].view());
    const HostTensor &want = (*expected)[r];
    ASSERT_EQ(actual.shape(), want.shape()) << "result " << r;
    // An f16 or bf16 result may round the other way from a nearby f32.
    Tolerance dtype = defaultTolerance(want.elementType());
    double atol = std::max(1e-4, dtype.atol), rtol = std::max(1e-4, dtype.rtol);
    for (int64_t i = 0; i < want.numElements(); ++i) {
      double a = actual.getDouble(i), e = want.getDouble(i);
      ASSERT_NEAR(a, e, atol + rtol * std::fabs(e)) << "result " << r << " element " << i;
    }
  }
}

class ExamplesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExamplesTest, MatchTheInterpreter) {
  struct Case {
    const char *file;
    DimBindings dims;
  };
  // Every example, at small dims that are not multiples of the vector width,
  // and with one row.
  const Case cases[] = {{"attn_softmax.xs", {{"B", 2}, {"S", 17}}},
                        {"attn_softmax.xs", {{"B", 1}, {"S", 1}}},
                        {"bias_gelu.xs", {{"R", 3}}},
                        {"bias_gelu.xs", {{"R", 1}}},
                        {"bias_grad.xs", {{"R", 129}}},
                        {"bias_grad.xs", {{"R", 1}}},
                        {"gelu_tanh.xs", {{"R", 5}}},
                        {"heads_transpose.xs", {{"B", 2}, {"S", 7}}},
                        {"layernorm.xs", {{"R", 13}}},
                        {"layernorm.xs", {{"R", 1}}},
                        {"layernorm_bwd.xs", {{"R", 37}}},
                        {"layernorm_f16.xs", {{"R", 11}}},
                        {"layernorm_bf16.xs", {{"R", 1}}},
                        {"rmsnorm.xs", {{"T", 7}}},
                        {"skip_layernorm.xs", {{"B", 3}, {"S", 5}}},
                        {"softmax_long_rows.xs", {{"R", 3}, {"C", 3001}}},
                        {"softmax_long_rows.xs", {{"R", 1}, {"C", 70001}}},
                        // Split on GPUs (few rows of two chunks or more).
                        {"softmax_long_rows.xs", {{"R", 5}, {"C", 4500}}},
                        {"softmax_small_rows.xs", {{"R", 101}}},
                        {"softmax_f16.xs", {{"R", 3}}},
                        {"softmax_bf16.xs", {{"R", 17}}}};
  CompileOptions options;
  options.device = GetParam();
  for (const Case &test : cases) {
    SCOPED_TRACE(test.file);
    Compiled c = compileText(readExample(test.file), options);
    ASSERT_NE(c.executable, nullptr);
    int launches = 0;
    for (const HostStep &step : c.executable->plan().steps)
      launches += step.kind == HostStep::Kind::Launch;
    EXPECT_GT(launches, 0); // real kernels ran, not only library steps
    expectMatchesInterpreter(c, randomInputs(*c.original->functions().front(), test.dims, 1));
  }
}

// On every device present (TestDevices.h).
INSTANTIATE_TEST_SUITE_P(Devices, ExamplesTest, ::testing::ValuesIn(compiledTestDevices()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return deviceTestName(info.param);
                         });

TEST(CpuEndToEnd, LibraryDotBetweenKernelsAndReshapes) {
  Compiled c = compileText("func @mlp(%x: f32[M, K], %w: f32[K, N], %b: f32[N]) -> "
                           "(y: f32[M, N], z: f32[M*N]) {\n"
                           "  %h = dot %x, %w\n"
                           "  %bb = broadcast %b {dims = [1]} : f32[M, N]\n"
                           "  %y = add %h, %bb\n"
                           "  %t = tanh %y\n"
                           "  %z = reshape %t : f32[M*N]\n"
                           "  return %y, %z\n"
                           "}\n");
  ASSERT_NE(c.executable, nullptr);
  for (int64_t m : {1, 5, 33})
    expectMatchesInterpreter(
        c, randomInputs(*c.original->functions().front(), {{"M", m}, {"K", 19}, {"N", 67}}, 3));
}

TEST(CpuEndToEnd, OneExecutableFromFourThreads) {
  Compiled c = compileText("func @f(%x: f32[R, C], %b: f32[C]) -> (y: f32[R, C], s: f32[R]) {\n"
                           "  %bb = broadcast %b {dims = [1]} : f32[R, C]\n"
                           "  %y = add %x, %bb\n"
                           "  %e = exp %y\n"
                           "  %s = reduce_sum %e {dims = [1]}\n"
                           "  return %y, %s\n"
                           "}\n");
  ASSERT_NE(c.executable, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 8; ++i) {
        DimBindings dims{{"R", 1 + 37 * t + i}, {"C", 3 + 61 * i + t}};
        expectMatchesInterpreter(
            c, randomInputs(*c.original->functions().front(), dims, static_cast<unsigned>(t)));
      }
    });
  for (std::thread &thread : threads)
    thread.join();
}

/// A [rows, cols] tensor of `type` whose row r is rows[r].fill but at the
/// listed columns.
struct SpecialRow {
  double fill;
  std::vector<std::pair<int64_t, double>> at;
};
HostTensor specialRows(ElementType type, const std::vector<SpecialRow> &rows, int64_t cols) {
  HostTensor x(type, {static_cast<int64_t>(rows.size()), cols});
  for (size_t r = 0; r < rows.size(); ++r) {
    for (int64_t i = 0; i < cols; ++i)
      x.setDouble(static_cast<int64_t>(r) * cols + i, rows[r].fill);
    for (auto [col, value] : rows[r].at)
      x.setDouble(static_cast<int64_t>(r) * cols + col, value);
  }
  return x;
}

TEST(CpuEndToEnd, RowExtremaKeepNaNsAndZeroSigns) {
  // reduce_max/min over rows of 37 (whole vectors and a remainder) whose
  // results the vectorized max/min alone would get wrong: NaN of either
  // sign anywhere, zeros of both signs (max prefers +0, min -0), infinities.
  const double nan = std::nan(""), inf = INFINITY;
  const double negativeNan = std::copysign(nan, -1.0);
  constexpr int64_t kCols = 37;
  const std::vector<SpecialRow> rows = {{-0.0, {}},                      // max -0, min -0
                                        {-0.0, {{5, 0.0}}},              // +0 in the vector body
                                        {-0.0, {{36, 0.0}}},             // +0 in the remainder
                                        {0.0, {{0, -0.0}}},              // min -0 among +0
                                        {-1.5, {{20, -0.0}}},            // max -0 among negatives
                                        {0.25, {{17, negativeNan}}},     // x86's default NaN
                                        {0.25, {{36, nan}}},             // NaN last
                                        {0.25, {{0, nan}}},              // NaN first
                                        {-inf, {}},                      // all -inf
                                        {1.0, {{3, inf}, {30, -inf}}},   // both infinities
                                        {-2.0, {{0, 0.0}}},              // +0 first, max
                                        {3.0, {{33, -0.0}, {34, 0.0}}}}; // min -0 beside +0
  for (const char *type : {"f32", "f64", "f16"}) {
    SCOPED_TRACE(type);
    Compiled c =
        compileText(strCat("func @extrema(%x: ", type, "[R, 37]) -> (mx, mn) {\n",
                           "  %mx = reduce_max %x {dims = [1]}\n",
                           "  %mn = reduce_min %x {dims = [1]}\n", "  return %mx, %mn\n}\n"));
    ASSERT_NE(c.executable, nullptr);
    const Function &f = *c.original->functions().front();
    HostTensor x = specialRows(f.param(0)->type().elementType(), rows, kCols);
    absl::StatusOr<std::vector<HostTensor>> expected = interpret(f, {x});
    ASSERT_TRUE(expected.ok()) << expected.status();
    Tensor input = toTensor(x);
    absl::StatusOr<std::vector<Tensor>> outputs = c.executable->run({input.view()});
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    for (size_t k = 0; k < 2; ++k) {
      HostTensor actual = toHostTensor((*outputs)[k].view());
      for (int64_t r = 0; r < actual.numElements(); ++r) {
        double a = actual.getDouble(r), e = (*expected)[k].getDouble(r);
        SCOPED_TRACE(strCat(k == 0 ? "reduce_max" : "reduce_min", " row ", r));
        EXPECT_EQ(std::isnan(a), std::isnan(e)) << a << " vs " << e;
        if (!std::isnan(e)) {
          EXPECT_EQ(a, e);
          EXPECT_EQ(std::signbit(a), std::signbit(e)) << a << " vs " << e;
        }
      }
    }
  }
}

TEST(CpuEndToEnd, SoftmaxOfNaNsZerosAndInfinities) {
  // Softmax's maximum runs unflagged (isSoftmaxMaximum): a NaN counts as
  // +inf and zeros take either sign, yet every output matches the
  // interpreter, which keeps NaN and the zero order: a row with a NaN or
  // +inf is NaN throughout, zeros of both signs give the same exp.
  const double nan = std::nan(""), inf = INFINITY;
  constexpr int64_t kCols = 37;
  const std::vector<SpecialRow> rows = {{-0.0, {{5, 0.0}}},
                                        {0.0, {{36, -0.0}}},
                                        {0.25, {{17, std::copysign(nan, -1.0)}}},
                                        {0.25, {{36, nan}}},
                                        {-3.0, {{0, nan}, {1, 2.0}}},
                                        {nan, {}},
                                        {-inf, {}},
                                        {1.0, {{3, inf}}},
                                        {1.0, {{30, -inf}}},
                                        {-2.0, {{7, 80.0}, {8, -80.0}}}};
  Compiled c = compileText("func @softmax(%x: f32[R, 37]) -> (y) {\n"
                           "  %y = softmax %x {axis = 1}\n"
                           "  return %y\n}\n");
  ASSERT_NE(c.executable, nullptr);
  const Function &f = *c.original->functions().front();
  HostTensor x = specialRows(ElementType::F32, rows, kCols);
  absl::StatusOr<std::vector<HostTensor>> expected = interpret(f, {x});
  ASSERT_TRUE(expected.ok()) << expected.status();
  Tensor input = toTensor(x);
  absl::StatusOr<std::vector<Tensor>> outputs = c.executable->run({input.view()});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  HostTensor actual = toHostTensor((*outputs)[0].view());
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    double a = actual.getDouble(i), e = (*expected)[0].getDouble(i);
    SCOPED_TRACE(strCat("row ", i / kCols, " column ", i % kCols));
    EXPECT_EQ(std::isnan(a), std::isnan(e)) << a << " vs " << e;
    if (!std::isnan(e))
      EXPECT_NEAR(a, e, 1e-6 + 1e-5 * std::abs(e));
  }
}

TEST(CpuEndToEnd, InputShapesAreCheckedByName) {
  Compiled c = compileText("func @g(%a: f32[B, S], %b: f32[S]) -> (y: f32[B, S]) {\n"
                           "  %bb = broadcast %b {dims = [1]} : f32[B, S]\n"
                           "  %y = mul %a, %bb\n"
                           "  return %y\n"
                           "}\n");
  ASSERT_NE(c.executable, nullptr);
  std::vector<float> data(64);
  absl::StatusOr<std::vector<Tensor>> outputs = c.executable->run(
      {{ElementType::F32, {2, 3}, data.data()}, {ElementType::F32, {4}, data.data()}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(outputs.status().message(),
            "inputs %a and %b must share S: %a has S = 3 (dim 1) but %b has 4 (dim 0)");
}

} // namespace
} // namespace xs
