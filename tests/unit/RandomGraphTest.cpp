// Random graphs of 2-30 memory-intensive ops (tools/common/RandomGraph.h)
// compiled for the CPU and compared with the reference interpreter, for a
// fixed set of seeds. `xstitch-graph-fuzz --seconds N` is the long mode.

#include <random>

#include "ir/Interpreter.h"
#include "tests/unit/TestDevices.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/RandomGraph.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

constexpr uint64_t kFirstSeed = 1;
constexpr uint64_t kNumGraphs = 60;

TEST(RandomGraphGeneratorTest, SameSeedSameGraphAndEveryGraphIsWellTyped) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    RandomGraph graph = generateRandomGraph(seed);
    EXPECT_EQ(graph.text, generateRandomGraph(seed).text);
    EXPECT_GE(graph.numOps, 2) << graph.text;
    absl::StatusOr<std::unique_ptr<Module>> module =
        parseSingleFunction(graph.text, {"shape-inference", "verify"});
    ASSERT_TRUE(module.ok()) << "seed " << seed << ": " << module.status().message() << "\n"
                             << graph.text;
    // Inputs follow the graph's contract (index ranges, dims): the
    // interpreter accepts them.
    std::mt19937_64 rng(seed);
    DimBindings dims = randomDimValues(graph.symbols, rng);
    absl::StatusOr<std::vector<HostTensor>> out =
        interpret(*(*module)->functions().front(), randomGraphInputs(graph, dims, rng));
    ASSERT_TRUE(out.ok()) << "seed " << seed << ": " << out.status().message() << "\n"
                          << graph.text;
  }
}

TEST(RandomGraphGeneratorTest, OptionsBoundTheOpCount) {
  RandomGraphOptions options;
  options.minOps = 5;
  options.maxOps = 5;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomGraph graph = generateRandomGraph(seed, options);
    // The last step may add the helpers of one op (|x| + 1, a squash).
    EXPECT_GE(graph.numOps, 5) << graph.text;
    EXPECT_LE(graph.numOps, 12) << graph.text;
  }
}

// The comparison the differential tests rely on notices a wrong element.
TEST(RandomGraphGeneratorTest, MismatchesAreReported) {
  HostTensor expected(ElementType::F32, {3});
  expected.floats() = {1, 2, 3};
  HostTensor actual = expected;
  EXPECT_EQ(describeMismatch("r0", actual, expected, {1e-3, 1e-3}), "");
  actual.floats()[1] = 2.01;
  EXPECT_NE(describeMismatch("r0", actual, expected, {1e-3, 1e-3}), "");
}

class RandomGraphTest : public ::testing::TestWithParam<std::tuple<uint64_t, std::string>> {};

TEST_P(RandomGraphTest, CompiledMatchesInterpreter) {
  const uint64_t seed = std::get<0>(GetParam());
  RandomGraph graph = generateRandomGraph(seed);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (int round = 0; round < 2; ++round) {
    DimBindings dims = randomDimValues(graph.symbols, rng);
    std::string dimText;
    for (const auto &[s, v] : dims)
      dimText += s + "=" + std::to_string(v) + " ";
    // The second round writes every result with streaming stores where it
    // can (the generator's results are far below the automatic threshold)
    // and, on AMD GPUs, exchanges lanes by ds_bpermute instead of DPP.
    CompileOptions options;
    options.device = std::get<1>(GetParam());
    options.streamingStoreBytes = round == 1 ? 1 : 0;
    options.amdgpuBpermute = round == 1;
    absl::StatusOr<DifferentialResult> result =
        runDifferential(graph.text, randomGraphInputs(graph, dims, rng), options, graph.tolerances);
    ASSERT_TRUE(result.ok()) << "seed " << seed << " dims " << dimText << ": "
                             << result.status().message() << "\n"
                             << graph.text;
    EXPECT_TRUE(result->passed) << "seed " << seed << " dims " << dimText << ":\n"
                                << result->message << graph.text;
  }
}

// Every seed on every device present (TestDevices.h).
INSTANTIATE_TEST_SUITE_P(
    Seeds, RandomGraphTest,
    ::testing::Combine(::testing::Range(kFirstSeed, kFirstSeed + kNumGraphs),
                       ::testing::ValuesIn(compiledTestDevices())),
    [](const ::testing::TestParamInfo<std::tuple<uint64_t, std::string>> &info) {
      return std::to_string(std::get<0>(info.param)) + "_" +
             deviceTestName(std::get<1>(info.param));
    });

} // namespace
} // namespace xs
