// One Executable run from several threads at once, each on its own inputs,
// gives exactly the results of sequential runs; concurrent compilation of the
// same function yields one cached Executable. Run under ThreadSanitizer by
// `scripts/test.sh --tsan`.

#include <thread>

#include "tools/common/DifferentialCheck.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

constexpr int kThreads = 4;
constexpr int kRunsPerThread = 8;

// Several kernels: a row reduction, broadcasts, element-wise and a column
// reduction, with temporaries in the per-call arena.
constexpr const char *kGraph = R"(
func @f(%x: f32[R, C], %w: f32[C]) -> (y, s) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %mb
  %e = exp %d
  %wb = broadcast %w {dims = [1]} : f32[R, C]
  %y = mul %e, %wb
  %s = reduce_sum %y {dims = [0]}
  return %y, %s
}
)";

std::vector<HostTensor> inputsFor(int index) {
  std::mt19937_64 rng(1000 + index);
  // Different shapes per call too: the dims are per call state.
  int64_t rows = 1 + index % 5 * 37, cols = 3 + index % 3 * 250;
  return {randomTensor(ElementType::F32, {rows, cols}, {-2, 2}, rng),
          randomTensor(ElementType::F32, {cols}, {-2, 2}, rng)};
}

bool identical(const HostTensor &a, const HostTensor &b) {
  return a.shape() == b.shape() && a.floats() == b.floats() && a.ints() == b.ints();
}

std::shared_ptr<Executable> compileGraph(CompileOptions options = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(kGraph, defaultPipeline());
  EXPECT_TRUE(module.ok()) << module.status().message();
  if (!module.ok())
    return nullptr;
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      compileFunction(*(*module)->functions().front(), options);
  EXPECT_TRUE(executable.ok()) << executable.status().message();
  return executable.ok() ? *executable : nullptr;
}

void expectConcurrentRunsMatchSequentialRuns(const CompileOptions &options) {
  std::shared_ptr<Executable> executable = compileGraph(options);
  ASSERT_TRUE(executable);
  const int numInputs = kThreads * kRunsPerThread;
  std::vector<std::vector<HostTensor>> inputs, sequential(numInputs), concurrent(numInputs);
  for (int i = 0; i < numInputs; ++i)
    inputs.push_back(inputsFor(i));
  for (int i = 0; i < numInputs; ++i) {
    absl::StatusOr<std::vector<HostTensor>> out = runExecutable(*executable, inputs[i]);
    ASSERT_TRUE(out.ok()) << out.status().message();
    sequential[i] = std::move(*out);
  }
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRunsPerThread; ++r) {
        int i = t + r * kThreads; // interleaved: neighbours run at once
        absl::StatusOr<std::vector<HostTensor>> out = runExecutable(*executable, inputs[i]);
        if (!out.ok()) {
          errors[t] = std::string(out.status().message());
          return;
        }
        concurrent[i] = std::move(*out);
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(errors[t], "") << "thread " << t;
  for (int i = 0; i < numInputs; ++i) {
    ASSERT_EQ(concurrent[i].size(), 2u) << "input " << i;
    for (size_t k = 0; k < 2; ++k)
      EXPECT_TRUE(identical(concurrent[i][k], sequential[i][k]))
          << "input " << i << " result " << k << " differs between concurrent and sequential runs";
  }
}

TEST(ConcurrencyTest, ConcurrentRunsMatchSequentialRuns) {
  expectConcurrentRunsMatchSequentialRuns(CompileOptions{});
}

// With one worker every kernel runs on its caller's thread, so the only
// concurrency is xstitch's own: the executable, host-plan state, allocator
// and caches shared by the callers. This is the case `scripts/test.sh --tsan`
// runs under ThreadSanitizer (TBB's scheduler is not instrumented there).
TEST(ConcurrencyTest, ConcurrentRunsMatchSequentialRunsSerialKernels) {
  CompileOptions options;
  options.threads = 1;
  expectConcurrentRunsMatchSequentialRuns(options);
}

TEST(ConcurrencyTest, ConcurrentCompilationsShareOneExecutable) {
  CompileOptions options;
  options.threads = 2; // a key no other test uses, so the first call compiles
  std::vector<std::shared_ptr<Executable>> executables(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { executables[t] = compileGraph(options); });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(executables[t]);
    EXPECT_EQ(executables[t], executables[0]) << "thread " << t << " compiled its own copy";
  }
}

TEST(ConcurrencyTest, ShapeErrorsInOneThreadDoNotDisturbOthers) {
  std::shared_ptr<Executable> executable = compileGraph();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> good = inputsFor(3);
  absl::StatusOr<std::vector<HostTensor>> expected = runExecutable(*executable, good);
  ASSERT_TRUE(expected.ok());
  std::mt19937_64 rng(7);
  // %w must have C elements: 5 is wrong for C = 253.
  std::vector<HostTensor> bad = {good[0], randomTensor(ElementType::F32, {5}, {-1, 1}, rng)};
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRunsPerThread; ++r) {
        bool useBad = (t + r) % 2 == 0;
        absl::StatusOr<std::vector<HostTensor>> out =
            runExecutable(*executable, useBad ? bad : good);
        if (useBad) {
          failures[t] += out.ok() || out.status().code() != absl::StatusCode::kInvalidArgument;
        } else {
          failures[t] += !out.ok() || !identical((*out)[0], (*expected)[0]) ||
                         !identical((*out)[1], (*expected)[1]);
        }
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[t], 0) << "thread " << t;
}

} // namespace
} // namespace xs
