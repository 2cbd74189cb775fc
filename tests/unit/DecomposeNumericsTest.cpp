// The decompose pass against the reference interpreter, which evaluates
// composites straight from their definitions: each function is interpreted
// as written and after shape-inference,decompose, on the same random inputs.

#include "tests/unit/PassNumericsUtil.h"

namespace xs {
namespace {

using testing::countOps;
using testing::expectSameResults;
using testing::parseAndRun;

// f64 throughout: the interpreter rounds f32 constants (1/n, sqrt(2)) to f32
// but not the composite's own arithmetic, so only f64 can match to 1e-12.
constexpr double kTolerance = 1e-12;

struct Case {
  const char *name;
  const char *text;
  std::vector<std::vector<int64_t>> shapes;
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.name; }

class DecomposeNumerics : public ::testing::TestWithParam<Case> {};

TEST_P(DecomposeNumerics, MatchesCompositeDefinition) {
  const Case &c = GetParam();
  std::unique_ptr<Module> reference = parseAndRun(c.text, {"shape-inference"});
  std::unique_ptr<Module> decomposed = parseAndRun(c.text, {"shape-inference", "decompose"});
  ASSERT_TRUE(reference && decomposed);
  const Function &before = *reference->functions().front();
  const Function &after = *decomposed->functions().front();
  EXPECT_GT(countOps(before, OpCategory::Composite), 0);
  EXPECT_EQ(countOps(after, OpCategory::Composite), 0) << printFunction(after);
  for (uint64_t seed : {1u, 2u, 3u})
    expectSameResults(*reference, *decomposed, before.name(), c.shapes, seed, kTolerance);
}

INSTANTIATE_TEST_SUITE_P(Composites, DecomposeNumerics,
                         ::testing::Values(Case{"layer_norm_affine",
                                                R"(
func @f(%x: f64[R, 16], %g: f64[16], %b: f64[16]) -> (y: f64[R, 16]) {
  %y = layer_norm %x, %g, %b {epsilon = 1.0e-05}
  return %y
})",
                                                {{5, 16}, {16}, {16}}},
                                           Case{"layer_norm_gamma_only_symbolic",
                                                R"(
func @f(%x: f64[R, D], %g: f64[D]) -> (y: f64[R, D]) {
  %y = layer_norm %x, %g
  return %y
})",
                                                {{4, 7}, {7}}},
                                           Case{"layer_norm_middle_axis_plain",
                                                R"(
func @f(%x: f64[B, 3, 4]) -> (y: f64[B, 3, 4]) {
  %y = layer_norm %x {axis = 1, epsilon = 0.001}
  return %y
})",
                                                {{3, 3, 4}}},
                                           Case{"layer_norm_middle_axis_affine_symbolic",
                                                R"(
func @f(%x: f64[B, S, H], %g: f64[S, H], %b: f64[S, H]) -> (y: f64[B, S, H]) {
  %y = layer_norm %x, %g, %b {axis = 1}
  return %y
})",
                                                {{2, 3, 5}, {3, 5}, {3, 5}}},
                                           Case{"rms_norm_weight",
                                                R"(
func @f(%x: f64[T, 32], %w: f64[32]) -> (y: f64[T, 32]) {
  %y = rms_norm %x, %w
  return %y
})",
                                                {{6, 32}, {32}}},
                                           Case{"rms_norm_axis0_symbolic",
                                                R"(
func @f(%x: f64[A, B]) -> (y: f64[A, B]) {
  %y = rms_norm %x {axis = 0, epsilon = 0.01}
  return %y
})",
                                                {{3, 5}}},
                                           Case{"softmax_middle_axis",
                                                R"(
func @f(%x: f64[B, S, H]) -> (y: f64[B, S, H]) {
  %y = softmax %x {axis = 1}
  return %y
})",
                                                {{2, 7, 3}}},
                                           Case{"softmax_last_axis",
                                                R"(
func @f(%x: f64[N, 10]) -> (y: f64[N, 10]) {
  %y = softmax %x
  return %y
})",
                                                {{4, 10}}},
                                           Case{"log_softmax_first_axis",
                                                R"(
func @f(%x: f64[N, M]) -> (y: f64[N, M]) {
  %y = log_softmax %x {axis = 0}
  return %y
})",
                                                {{6, 4}}},
                                           Case{"log_softmax_middle_axis",
                                                R"(
func @f(%x: f64[A, B, C]) -> (y: f64[A, B, C]) {
  %y = log_softmax %x {axis = 1}
  return %y
})",
                                                {{2, 5, 3}}},
                                           Case{"gelu_erf",
                                                R"(
func @f(%x: f64[N, 8]) -> (y: f64[N, 8]) {
  %y = gelu %x
  return %y
})",
                                                {{5, 8}}},
                                           Case{"gelu_tanh",
                                                R"(
func @f(%x: f64[N]) -> (y: f64[N]) {
  %y = gelu %x {approximate = tanh}
  return %y
})",
                                                {{64}}},
                                           Case{"chained_composites",
                                                R"(
func @f(%x: f64[N, 12], %g: f64[12]) -> (y: f64[N, 12], z: f64[N, 12]) {
  %n = layer_norm %x, %g
  %a = gelu %n {approximate = tanh}
  %y = softmax %a
  %z = log_softmax %n {axis = 0}
  return %y, %z
})",
                                                {{5, 12}, {12}}}),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

// An unknown gelu form is a user error located at the op, not a crash.
TEST(DecomposeErrors, UnknownGeluFormIsLocatedError) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(R"(
func @f(%x: f64[N]) -> (y: f64[N]) {
  %y = gelu %x {approximate = cubic}
  return %y
})",
                                                               "test.xs");
  ASSERT_TRUE(module.ok()) << module.status();
  PipelineOptions options;
  absl::Status status = runPipeline(**module, {"shape-inference", "decompose"}, options);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("test.xs:3:"), std::string::npos) << status;
}

} // namespace
} // namespace xs
