// planProgram properties that golden tests do not pin down: liveness slots
// never overlap, variant predicates select the intended mapping at concrete
// dims and the chosen grid covers the iteration space, every op is covered
// exactly once, outputs are fresh buffers, and planning errors name the op.

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"
#include "tests/unit/SourceDir.h"
#include "transforms/Pass.h"
#include "transforms/PlanProgram.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

const std::vector<std::string> &canonicalPipeline() { return defaultPipeline(); }

std::unique_ptr<Module> parseAndCanonicalize(std::string_view text,
                                             const std::vector<std::string> &passes) {
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.xs");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return nullptr;
  PipelineOptions options;
  absl::Status s = runPipeline(**m, passes, options);
  EXPECT_TRUE(s.ok()) << s.message();
  return std::move(*m);
}

ProgramPlan planOk(const Function &f) {
  absl::StatusOr<ProgramPlan> plan = planProgram(f, genericCpuTarget(), PlanOptions{false});
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? std::move(*plan) : ProgramPlan{};
}

std::string planError(std::string_view text, const std::vector<std::string> &passes) {
  std::unique_ptr<Module> m = parseAndCanonicalize(text, passes);
  if (!m)
    return "";
  absl::StatusOr<ProgramPlan> plan =
      planProgram(*m->functions().at(0), genericCpuTarget(), PlanOptions{false});
  EXPECT_FALSE(plan.ok()) << "planned unexpectedly:\n" << text;
  return plan.ok() ? std::string() : std::string(plan.status().message());
}

/// Steps (first, last) in which each buffer's memory is used, through aliases.
std::vector<std::pair<int, int>> liveRanges(const HostPlan &host) {
  std::vector<std::pair<int, int>> ranges(host.buffers.size(), {-1, -1});
  for (size_t s = 0; s < host.steps.size(); ++s)
    for (int b : host.steps[s].buffers) {
      while (host.buffers[b].kind == HostBuffer::Kind::Alias)
        b = host.buffers[b].aliasOf;
      if (ranges[b].first < 0)
        ranges[b].first = static_cast<int>(s);
      ranges[b].second = static_cast<int>(s);
    }
  return ranges;
}

/// Temporaries sharing a slot have disjoint live ranges; slots are in range.
void expectSlotsDisjoint(const HostPlan &host) {
  std::vector<std::pair<int, int>> ranges = liveRanges(host);
  for (size_t a = 0; a < host.buffers.size(); ++a) {
    const HostBuffer &ba = host.buffers[a];
    if (ba.kind != HostBuffer::Kind::Temporary)
      continue;
    EXPECT_GE(ba.slot, 0) << ba.name;
    EXPECT_LT(ba.slot, host.numSlots) << ba.name;
    for (size_t b = a + 1; b < host.buffers.size(); ++b) {
      const HostBuffer &bb = host.buffers[b];
      if (bb.kind != HostBuffer::Kind::Temporary || bb.slot != ba.slot)
        continue;
      bool disjoint = ranges[a].second < ranges[b].first || ranges[b].second < ranges[a].first;
      EXPECT_TRUE(disjoint) << host.function << ": %" << ba.name << " and %" << bb.name
                            << " share slot " << ba.slot << " while both live";
    }
  }
}

/// Every op of `f` is covered exactly once: by a step's ops, as a constant
/// buffer, or (splat constants) copied into the kernels that read it.
void expectEveryOpCoveredOnce(const Function &f, const ProgramPlan &plan) {
  std::map<std::string, int> covered;
  for (const HostStep &step : plan.host.steps)
    for (const std::string &op : step.ops)
      ++covered[op];
  for (const HostBuffer &b : plan.host.buffers)
    if (b.kind == HostBuffer::Kind::Constant)
      ++covered[strCat("%", b.name, " = constant")];
  std::map<std::string, int> cloned;
  for (const KernelPlan &k : plan.kernels)
    for (const auto &op : k.body->ops())
      if (op->kind() == OpKind::Constant)
        ++cloned[op->result()->name()];
  for (const auto &op : f.ops()) {
    std::string summary = strCat("%", op->result()->name(), " = ", op->mnemonic());
    if (op->kind() == OpKind::Constant && cloned.contains(op->result()->name()))
      continue;
    EXPECT_EQ(covered[summary], 1) << f.name() << ": " << summary;
    covered.erase(summary);
  }
  // What is left are copies of returned values, one per copy kernel.
  for (const auto &[summary, count] : covered)
    EXPECT_NE(summary.find(" = copy %"), std::string::npos) << f.name() << ": " << summary;
}

/// Structure every plan must have, checked against the emitter's contract.
void expectWellFormed(const ProgramPlan &plan) {
  size_t launches = 0;
  for (const HostStep &step : plan.host.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    const KernelPlan &k = plan.kernels.at(launches++);
    EXPECT_EQ(step.kernel, k.name);
    EXPECT_EQ(k.name.rfind(strCat("k", launches - 1, "_"), 0), 0u) << k.name;
    EXPECT_TRUE(verifyFunction(*k.body).ok()) << k.name;
    EXPECT_EQ(step.buffers.size(), k.body->params().size() + k.body->results().size() +
                                       k.scratch.size() + k.partials.size());
    ASSERT_EQ(step.variants.size(), k.variants.size());
    ASSERT_FALSE(k.variants.empty());
    EXPECT_TRUE(k.variants.back().predicates.empty()) << k.name;
    bool anySplit = false;
    for (size_t v = 0; v < k.variants.size(); ++v) {
      // A kernel that runs another's code launches that kernel's symbols,
      // and the two have the same code key.
      std::string owner = k.codeOf.empty() ? k.name : k.codeOf;
      EXPECT_EQ(step.variants[v].symbol, strCat(owner, ".v", v));
      if (!k.codeOf.empty()) {
        auto original = std::find_if(plan.kernels.begin(), plan.kernels.end(),
                                     [&](const KernelPlan &o) { return o.name == k.codeOf; });
        ASSERT_NE(original, plan.kernels.end()) << k.codeOf;
        EXPECT_TRUE(original->codeOf.empty()) << k.name;
        EXPECT_EQ(kernelCodeKey(*original), kernelCodeKey(k)) << k.name;
      }
      EXPECT_EQ(step.variants[v].grid, k.variants[v].grid);
      // One group; a split reduction has two, its partials and their
      // combine, both on the reduction.
      const std::vector<PlanGroup> &groups = k.variants[v].groups;
      bool split = groups.size() == 2 && ((groups[0].mapping.kind == MappingKind::ColumnPartial &&
                                           groups[1].mapping.kind == MappingKind::ColumnCombine) ||
                                          (groups[0].mapping.kind == MappingKind::RowPartial &&
                                           groups[1].mapping.kind == MappingKind::RowCombine));
      ASSERT_TRUE(groups.size() == 1 || split) << k.name;
      for (const PlanGroup &group : groups)
        EXPECT_EQ(group.dominant, k.body->results().at(0).value->definingOp());
      anySplit |= split;
    }
    EXPECT_EQ(k.partials.size(), anySplit ? 1u : 0u) << k.name;
  }
  EXPECT_EQ(launches, plan.kernels.size());
  for (size_t r = 0; r < plan.host.outputs.size(); ++r) {
    const HostBuffer &out = plan.host.buffers.at(plan.host.outputs[r]);
    EXPECT_EQ(out.kind, HostBuffer::Kind::Output);
    EXPECT_EQ(out.resultIndex, static_cast<int>(r));
  }
}

std::vector<std::filesystem::path> exampleFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::filesystem::path(testSourceDir()) / "examples"))
    if (entry.path().extension() == ".xs")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PlanProgram, ExamplesAreWellFormedCoveredAndSlotsDisjoint) {
  std::vector<std::filesystem::path> files = exampleFiles();
  ASSERT_FALSE(files.empty());
  for (const auto &path : files) {
    SCOPED_TRACE(path.string());
    absl::StatusOr<std::unique_ptr<Module>> m = parseModuleFile(path.string());
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(runPipeline(**m, canonicalPipeline(), PipelineOptions{}).ok());
    for (const auto &f : (*m)->functions()) {
      ProgramPlan plan = planOk(*f);
      expectWellFormed(plan);
      expectSlotsDisjoint(plan.host);
      expectEveryOpCoveredOnce(*f, plan);
    }
  }
}

TEST(PlanProgram, ChainAlternatesSlotsWhileALiveValueKeepsItsOwn) {
  // %a is read again by the last op, so its slot stays taken; %b..%d form a
  // chain whose values alternate between two more slots.
  std::unique_ptr<Module> m = parseAndCanonicalize(R"(
func @chain(%x: f32[N]) -> (y: f32[N]) {
  %a = exp %x
  %b = neg %a
  %c = abs %b
  %d = floor %c
  %y = add %d, %a
  return %y
}
)",
                                                   {"shape-inference"});
  ASSERT_TRUE(m);
  ProgramPlan plan = planOk(*m->functions()[0]);
  const HostPlan &host = plan.host;
  absl::flat_hash_map<std::string, int> slot;
  for (const HostBuffer &b : host.buffers)
    if (b.kind == HostBuffer::Kind::Temporary)
      slot[b.name] = b.slot;
  EXPECT_EQ(host.numSlots, 3);
  EXPECT_EQ(slot["a"], 0);
  EXPECT_EQ(slot["b"], 1);
  EXPECT_EQ(slot["c"], 2);
  EXPECT_EQ(slot["d"], 1); // %b is dead once %c is written
  expectSlotsDisjoint(host);
}

TEST(PlanProgram, AliasKeepsItsSourceAlive) {
  // %r views %t's memory: %t's slot is not reused while %r is read.
  std::unique_ptr<Module> m = parseAndCanonicalize(R"(
func @alias(%x: f32[N, 4]) -> (y: f32[4, N]) {
  %t = exp %x
  %r = reshape %t : f32[4, N]
  %u = neg %x
  %v = abs %u
  %y = add %v, %r
  return %y
}
)",
                                                   {"shape-inference"});
  ASSERT_TRUE(m);
  ProgramPlan plan = planOk(*m->functions()[0]);
  const HostPlan &host = plan.host;
  int t = -1, r = -1;
  for (size_t i = 0; i < host.buffers.size(); ++i) {
    if (host.buffers[i].name == "t")
      t = static_cast<int>(i);
    if (host.buffers[i].name == "r")
      r = static_cast<int>(i);
  }
  ASSERT_GE(t, 0);
  ASSERT_GE(r, 0);
  EXPECT_EQ(host.buffers[r].kind, HostBuffer::Kind::Alias);
  EXPECT_EQ(host.buffers[r].aliasOf, t);
  for (const HostBuffer &b : host.buffers)
    if (b.kind == HostBuffer::Kind::Temporary && b.name != "t")
      EXPECT_NE(b.slot, host.buffers[t].slot) << b.name;
  expectSlotsDisjoint(host);
}

/// The mapping of the first variant whose predicates hold at `dims`.
const KernelVariant &selectVariant(const KernelPlan &k, const DimBindings &dims) {
  for (const KernelVariant &v : k.variants) {
    absl::StatusOr<bool> holds = evaluateAll(v.predicates, dims);
    EXPECT_TRUE(holds.ok()) << holds.status().message();
    if (holds.ok() && *holds)
      return v;
  }
  ADD_FAILURE() << "no variant of " << k.name << " applies";
  return k.variants.back();
}

int64_t eval(const DimExpr &e, const DimBindings &dims) {
  absl::StatusOr<int64_t> v = e.evaluate(dims);
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? *v : 0;
}

/// The chosen variant's blocks cover the mapping's iteration space.
void expectGridCovers(const KernelVariant &v, const DimBindings &dims) {
  const ThreadMapping &m = v.groups.at(0).mapping;
  int64_t grid = eval(v.grid, dims), rows = eval(m.rows, dims), cols = eval(m.cols, dims);
  int64_t batch = eval(m.batch, dims);
  if (m.kind == MappingKind::ColumnReduce || m.kind == MappingKind::BatchColumnReduce) {
    EXPECT_GE(grid * m.colsPerBlock, batch * cols);
    return;
  }
  int64_t colBlocks = m.colsPerBlock > 0 ? (cols + m.colsPerBlock - 1) / m.colsPerBlock : 1;
  EXPECT_EQ(grid, (rows + m.rowsPerBlock - 1) / m.rowsPerBlock * colBlocks);
}

TEST(PlanProgram, VariantPredicatesSelectTheIntendedMapping) {
  std::unique_ptr<Module> m = parseAndCanonicalize(R"(
func @ew(%a: f32[N, C], %b: f32[N, C]) -> (y: f32[N, C]) {
  %y = add %a, %b
  return %y
}
)",
                                                   {"shape-inference"});
  ASSERT_TRUE(m);
  ProgramPlan plan = planOk(*m->functions()[0]);
  ASSERT_EQ(plan.kernels.size(), 1u);
  const KernelPlan &k = plan.kernels[0];
  struct Case {
    int64_t n, c;
    int64_t rowsPerBlock, colsPerBlock;
  };
  // Short rows pack several rows per block (up to the generic target's 256
  // elements); few very long rows split columns.
  for (Case c : {Case{1000, 32, 4, 0}, Case{1000, 64, 4, 0}, Case{1000, 65, 1, 0},
                 Case{1000, 1024, 1, 0}, Case{1000, 5000, 1, 0}, Case{1, 100000, 1, 16384},
                 Case{3, 16385, 1, 16384}, Case{4, 100000, 1, 0}, Case{1, 16384, 1, 0}}) {
    SCOPED_TRACE(strCat("N = ", c.n, ", C = ", c.c));
    DimBindings dims{{"N", c.n}, {"C", c.c}};
    const KernelVariant &v = selectVariant(k, dims);
    EXPECT_EQ(v.groups.at(0).mapping.rowsPerBlock, c.rowsPerBlock);
    EXPECT_EQ(v.groups.at(0).mapping.colsPerBlock, c.colsPerBlock);
    expectGridCovers(v, dims);
  }
}

TEST(PlanProgram, ChosenGridsCoverEveryExampleAtRandomDims) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> sizes = {1, 2, 3, 7, 31, 64, 65, 1000, 4099, 70000};
  for (const auto &path : exampleFiles()) {
    SCOPED_TRACE(path.string());
    absl::StatusOr<std::unique_ptr<Module>> m = parseModuleFile(path.string());
    ASSERT_TRUE(m.ok());
    ASSERT_TRUE(runPipeline(**m, canonicalPipeline(), PipelineOptions{}).ok());
    for (const auto &f : (*m)->functions()) {
      ProgramPlan plan = planOk(*f);
      for (int trial = 0; trial < 20; ++trial) {
        DimBindings dims;
        for (const std::string &s : plan.host.symbols)
          dims[s] = sizes[rng() % sizes.size()];
        plan.host.constraints.deriveBindings(dims);
        for (const KernelPlan &k : plan.kernels)
          expectGridCovers(selectVariant(k, dims), dims);
      }
    }
  }
}

TEST(PlanProgram, OutputsAreFreshBuffers) {
  std::unique_ptr<Module> m = parseAndCanonicalize(R"(
func @ret(%x: f32[N]) -> (a: f32[N], b: f32[N], x: f32[N]) {
  %n = neg %x
  return %n, %n, %x
}
)",
                                                   {"shape-inference"});
  ASSERT_TRUE(m);
  const Function &f = *m->functions()[0];
  ProgramPlan plan = planOk(f);
  expectWellFormed(plan);
  expectEveryOpCoveredOnce(f, plan);
  ASSERT_EQ(plan.host.outputs.size(), 3u);
  EXPECT_NE(plan.host.outputs[0], plan.host.outputs[1]);
  EXPECT_EQ(plan.kernels.size(), 3u); // neg, a copy of %n, a copy of %x
  // The copy of %x must not reuse the value name of the parameter.
  EXPECT_EQ(plan.host.buffers[plan.host.outputs[2]].name, "x_copy");
}

TEST(PlanProgram, CompositeIsAnErrorNamingTheOp) {
  std::string error = planError(R"(
func @f(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x
  return %y
}
)",
                                {"shape-inference"});
  EXPECT_NE(error.find("test.xs:3:3: error: cannot plan kernels for composite op 'softmax' (%y)"),
            std::string::npos)
      << error;
}

TEST(PlanProgram, UnknownTypeIsAnErrorNamingTheOp) {
  std::string error = planError(R"(
func @f(%x: f32[N]) -> (y: f32[N]) {
  %y = exp %x
  return %y
}
)",
                                {});
  EXPECT_NE(error.find("test.xs:3:3: error: cannot plan kernels: the type of %y = exp is unknown"),
            std::string::npos)
      << error;
}

TEST(PlanProgram, UnderivableSymbolIsAnErrorAtTheOpThatIntroducesIt) {
  std::string error = planError(R"(
func @f(%x: f32[S]) -> (y: f32[K]) {
  %i = iota {dim = 0} : f32[K]
  return %i
}
)",
                                {"shape-inference"});
  EXPECT_NE(error.find("test.xs:3:3: error: cannot compute dim symbol 'K' of %i"),
            std::string::npos)
      << error;
}

TEST(PlanProgram, DerivedSymbolsArePlannable) {
  // T is not a parameter dim but T == B*S binds it from the inputs.
  std::unique_ptr<Module> m = parseAndCanonicalize(R"(
func @f(%x: f32[B, S]) -> (y: f32[T]) where T == B*S {
  %r = reshape %x : f32[T]
  %y = exp %r
  return %y
}
)",
                                                   {"shape-inference"});
  ASSERT_TRUE(m);
  ProgramPlan plan = planOk(*m->functions()[0]);
  expectWellFormed(plan);
  EXPECT_EQ(plan.host.symbols.front(), "B");
}

} // namespace
} // namespace xs
