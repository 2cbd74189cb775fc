// Broadcast speculation (transforms/SpeculateBroadcasts.h): the variants a
// function's broadcast facts make, the one a call's dims select, and the
// compiled program that carries them: on the CPU each variant agrees with
// the interpreter, a program file keeps them, and dims that do not
// broadcast are an error naming them.

#include "transforms/SpeculateBroadcasts.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "driver/Compiler.h"
#include "ir/HostPlanSerialization.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/SpeculatedExecutable.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

constexpr const char *kAdd = R"(
func @add(%x: f32[N, 4], %y: f32[M, 4]) -> (z) where D == broadcast(N, M) {
  %xb = broadcast %x {dims = [0, 1]} : f32[D, 4]
  %yb = broadcast %y {dims = [0, 1]} : f32[D, 4]
  %e = exp %yb
  %z = add %xb, %e
  return %z
}
)";

std::unique_ptr<Module> parse(const std::string &text) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(text, defaultPipeline());
  EXPECT_TRUE(module.ok()) << module.status().message();
  return module.ok() ? *std::move(module) : nullptr;
}

std::vector<std::string> assumptionsOf(const std::vector<BroadcastVariant> &variants) {
  std::vector<std::string> out;
  for (const BroadcastVariant &v : variants)
    out.push_back(v.str());
  return out;
}

TEST(SpeculateBroadcastsTest, EqualFirstThenEachSideOne) {
  std::unique_ptr<Module> module = parse(kAdd);
  ASSERT_NE(module, nullptr);
  const Function &f = *module->functions().front();
  absl::StatusOr<std::vector<BroadcastVariant>> variants = broadcastVariants(f);
  ASSERT_TRUE(variants.ok()) << variants.status().message();
  EXPECT_EQ(assumptionsOf(*variants), (std::vector<std::string>{"M == N", "N == 1", "M == 1"}));
  EXPECT_EQ(variantAt(f, *variants, {{"N", 5}, {"M", 5}}), 0u);
  EXPECT_EQ(variantAt(f, *variants, {{"N", 1}, {"M", 5}}), 1u);
  EXPECT_EQ(variantAt(f, *variants, {{"N", 5}, {"M", 1}}), 2u);
  // Both 1: the equal variant covers it first.
  EXPECT_EQ(variantAt(f, *variants, {{"N", 1}, {"M", 1}}), 0u);

  // Each variant is a function without the fact, its broadcasts resolved.
  for (const BroadcastVariant &variant : *variants) {
    absl::StatusOr<std::unique_ptr<Module>> speculated = speculatedFunction(f, variant);
    ASSERT_TRUE(speculated.ok()) << speculated.status().message();
    EXPECT_TRUE((*speculated)->functions().front()->constraints().broadcasts().empty());
  }
}

TEST(SpeculateBroadcastsTest, NoFactNoVariant) {
  std::unique_ptr<Module> module =
      parse("func @f(%x: f32[N]) -> (y) {\n  %y = exp %x\n  return %y\n}\n");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<std::vector<BroadcastVariant>> variants =
      broadcastVariants(*module->functions().front());
  ASSERT_TRUE(variants.ok());
  EXPECT_TRUE(variants->empty());
}

// k independent facts make 3^k relations; the cap keeps those with the
// fewest dims of 1, every pair equal first.
TEST(SpeculateBroadcastsTest, ManyFactsAreCappedFewestOnesFirst) {
  std::string params, facts, body, sum;
  for (int i = 0; i < 4; ++i) {
    absl::StrAppend(&params, i ? ", " : "", "%a", i, ": f32[A", i, "], %b", i, ": f32[B", i, "]");
    absl::StrAppend(&facts, i ? ", " : "", "D", i, " == broadcast(A", i, ", B", i, ")");
    absl::StrAppend(&body, "  %ab", i, " = broadcast %a", i, " {dims = [0]} : f32[D", i, "]\n",
                    "  %bb", i, " = broadcast %b", i, " {dims = [0]} : f32[D", i, "]\n", "  %s", i,
                    " = add %ab", i, ", %bb", i, "\n");
    absl::StrAppend(&sum, i ? ", " : "", "s", i);
  }
  std::string text = absl::StrCat("func @f(", params, ") -> (", sum, ") where ", facts, " {\n",
                                  body, "  return %s0, %s1, %s2, %s3\n}\n");
  std::unique_ptr<Module> module = parse(text);
  ASSERT_NE(module, nullptr);
  const Function &f = *module->functions().front();
  absl::StatusOr<std::vector<BroadcastVariant>> all = broadcastVariants(f, 1000);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->size(), 81u);
  absl::StatusOr<std::vector<BroadcastVariant>> capped = broadcastVariants(f);
  ASSERT_TRUE(capped.ok());
  ASSERT_EQ(capped->size(), static_cast<size_t>(kDefaultMaxBroadcastVariants));
  EXPECT_EQ(capped->front().str(), "B0 == A0, B1 == A1, B2 == A2, B3 == A3");
  // 1 + 4*2 relations with at most one dim of 1, then the first 7 with two.
  for (size_t v = 1; v < 9; ++v)
    EXPECT_EQ(capped->at(v).assumptions.size(), 4u) << capped->at(v).str();
  EXPECT_NE(capped->at(8).str().find("== 1"), std::string::npos);

  // Compiled, the capped variants run what they cover; dims beyond them
  // (three of 1) are an error that says what to do.
  CompileOptions options;
  options.useCache = false;
  absl::StatusOr<std::shared_ptr<Executable>> executable = compileFunction(f, options);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  EXPECT_EQ(speculatedVariantCount(**executable), 16u);
  auto vector = [](int64_t n) { return HostTensor(ElementType::F32, {n}); };
  std::vector<HostTensor> covered = {vector(1), vector(5), vector(4), vector(4),
                                     vector(3), vector(3), vector(2), vector(2)};
  EXPECT_TRUE(runExecutable(**executable, covered).ok());
  std::vector<HostTensor> beyond = {vector(1), vector(5), vector(1), vector(4),
                                    vector(1), vector(3), vector(2), vector(2)};
  absl::StatusOr<std::vector<HostTensor>> refused = runExecutable(**executable, beyond);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("has no compiled variant for these dims"),
            std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("--specialize"), std::string::npos);
}

// Facts that rule a relation out (a range above 1) leave its variant out.
TEST(SpeculateBroadcastsTest, RefutedRelationsAreLeftOut) {
  std::unique_ptr<Module> module = parse(R"(
func @f(%x: f32[N], %y: f32[M]) -> (z) where D == broadcast(N, M), 2 <= N {
  %xb = broadcast %x {dims = [0]} : f32[D]
  %yb = broadcast %y {dims = [0]} : f32[D]
  %z = add %xb, %yb
  return %z
}
)");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<std::vector<BroadcastVariant>> variants =
      broadcastVariants(*module->functions().front());
  ASSERT_TRUE(variants.ok());
  EXPECT_EQ(assumptionsOf(*variants), (std::vector<std::string>{"M == N", "M == 1"}));
}

HostTensor rows(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return randomTensor(ElementType::F32, {n, 4}, defaultRandomRange(ElementType::F32), rng);
}

void expectMatchesInterpreter(const Executable &executable, const Function &f, int64_t n,
                              int64_t m) {
  std::vector<HostTensor> inputs = {rows(n, static_cast<uint64_t>(n * 31 + m)),
                                    rows(m, static_cast<uint64_t>(m * 17 + n))};
  absl::StatusOr<std::vector<HostTensor>> got = runExecutable(executable, inputs);
  absl::StatusOr<std::vector<HostTensor>> want = interpret(f, inputs);
  ASSERT_TRUE(got.ok()) << "N = " << n << ", M = " << m << ": " << got.status().message();
  ASSERT_TRUE(want.ok()) << want.status().message();
  ASSERT_EQ(got->at(0).shape(), want->at(0).shape());
  std::vector<double> g = got->at(0).floats(), w = want->at(0).floats();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], w[i], 1e-5 * (1 + std::abs(w[i])))
        << "element " << i << " at N = " << n << ", M = " << m;
}

void expectEveryRelationRuns(const Executable &executable, const Function &f) {
  for (auto [n, m] : std::vector<std::pair<int64_t, int64_t>>{
           {5, 5}, {1, 7}, {7, 1}, {1, 1}, {13, 13}, {1, 300}, {300, 1}})
    expectMatchesInterpreter(executable, f, n, m);
  absl::StatusOr<std::vector<HostTensor>> refused =
      runExecutable(executable, {rows(3, 1), rows(5, 2)});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "the inputs of @add do not broadcast: N = 3 and M = 5 meet in a broadcast, so they "
            "must be equal or one of them 1 (inputs %x: [3, 4], %y: [5, 4])");
}

TEST(SpeculateBroadcastsTest, CompiledVariantsAgreeWithTheInterpreter) {
  std::unique_ptr<Module> module = parse(kAdd);
  ASSERT_NE(module, nullptr);
  const Function &f = *module->functions().front();
  CompileOptions options;
  options.useCache = false;
  CompileInfo info;
  absl::StatusOr<std::shared_ptr<Executable>> executable = compileFunction(f, options, &info);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  EXPECT_EQ(info.variants, 3);
  EXPECT_EQ(speculatedVariantCount(**executable), 3u);
  expectEveryRelationRuns(**executable, f);
}

TEST(SpeculateBroadcastsTest, AProgramFileKeepsTheVariants) {
  std::unique_ptr<Module> module = parse(kAdd);
  ASSERT_NE(module, nullptr);
  const Function &f = *module->functions().front();
  CompileOptions options;
  options.useCache = false;
  absl::StatusOr<CompiledProgram> program = compileProgram(f, options);
  ASSERT_TRUE(program.ok()) << program.status().message();
  ASSERT_EQ(program->speculations.size(), 3u);
  std::string bytes = serializeProgram(*program);
  absl::StatusOr<CompiledProgram> back = deserializeProgram(bytes);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->speculations.size(), 3u);
  for (size_t v = 0; v < 3; ++v) {
    EXPECT_EQ(printHostPlan(back->speculations[v].program.host),
              printHostPlan(program->speculations[v].program.host));
    EXPECT_EQ(back->speculations[v].assumptions.size(),
              program->speculations[v].assumptions.size());
  }
  EXPECT_EQ(serializeProgram(*back), bytes);
  for (size_t cut = 0; cut < bytes.size(); cut += (cut < 2048 ? 1 : 499))
    EXPECT_FALSE(deserializeProgram(bytes.substr(0, cut)).ok()) << "cut at " << cut;

  absl::StatusOr<std::shared_ptr<Executable>> loaded = loadProgram(*std::move(back), options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(speculatedVariantCount(**loaded), 3u);
  expectEveryRelationRuns(**loaded, f);
}

} // namespace
} // namespace xs
