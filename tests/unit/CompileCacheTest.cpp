// The compile cache and the driver's use of it: hits for the same canonical
// IR and options, misses when anything that changes the code differs, one
// compilation for concurrent callers, failures not cached.

#include <atomic>
#include <thread>

#include "driver/CompileCache.h"
#include "driver/Compiler.h"
#include "tools/common/DifferentialCheck.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

// A stand-in Executable: the cache only stores and hands out pointers.
class FakeExecutable : public Executable {
public:
  const HostPlan &plan() const override { return plan_; }
  std::string deviceName() const override { return "fake"; }
  absl::StatusOr<RunResult> execute(const RunRequest &, RunStats *) const override {
    return RunResult();
  }

private:
  HostPlan plan_;
};

TEST(CompileCacheTest, SameKeyHitsOtherKeyMisses) {
  CompileCache cache;
  int compiles = 0;
  auto compile = [&]() -> absl::StatusOr<std::shared_ptr<Executable>> {
    ++compiles;
    return std::make_shared<FakeExecutable>();
  };
  bool hit = true;
  auto a = cache.getOrCompile("key a", compile, &hit);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(hit);
  auto again = cache.getOrCompile("key a", compile, &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(*again, *a);
  auto b = cache.getOrCompile("key b", compile, &hit);
  EXPECT_FALSE(hit);
  EXPECT_NE(*b, *a);
  EXPECT_EQ(compiles, 2);
}

TEST(CompileCacheTest, FailuresAreNotCached) {
  CompileCache cache;
  int compiles = 0;
  auto failing = [&]() -> absl::StatusOr<std::shared_ptr<Executable>> {
    ++compiles;
    return absl::InternalError("kernel k0 failed");
  };
  EXPECT_FALSE(cache.getOrCompile("k", failing, nullptr).ok());
  EXPECT_FALSE(cache.getOrCompile("k", failing, nullptr).ok());
  EXPECT_EQ(compiles, 2);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(CompileCacheTest, ConcurrentCallersCompileOnce) {
  CompileCache cache;
  std::atomic<int> compiles{0};
  auto slow = [&]() -> absl::StatusOr<std::shared_ptr<Executable>> {
    ++compiles;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return std::make_shared<FakeExecutable>();
  };
  std::vector<std::shared_ptr<Executable>> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] { got[t] = *cache.getOrCompile("same", slow, nullptr); });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(compiles.load(), 1);
  for (const auto &e : got)
    EXPECT_EQ(e, got[0]);
}

TEST(CompileCacheTest, CapacityDropsTheOldest) {
  CompileCache cache(2);
  auto compile = []() -> absl::StatusOr<std::shared_ptr<Executable>> {
    return std::make_shared<FakeExecutable>();
  };
  for (const char *k : {"a", "b", "c"})
    ASSERT_TRUE(cache.getOrCompile(k, compile, nullptr).ok());
  EXPECT_EQ(cache.size(), 2u);
  bool hit = true;
  ASSERT_TRUE(cache.getOrCompile("a", compile, &hit).ok());
  EXPECT_FALSE(hit) << "the oldest entry should have been dropped";
}

TEST(CompileCacheTest, StableHashIsFnv1a) {
  EXPECT_EQ(stableHash64(""), 14695981039346656037ull);
  EXPECT_EQ(stableHash64("a"), 0xaf63dc4c8601ec8cull);
}

constexpr const char *kGraph = R"(
func @f(%x: f32[N, 5]) -> (y) {
  %e = exp %x
  %y = reduce_sum %e {dims = [1]}
  return %y
}
)";

TEST(CompilerTest, RepeatedCompilationsHitTheCache) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(kGraph, defaultPipeline());
  ASSERT_TRUE(module.ok()) << module.status().message();
  const Function &f = *(*module)->functions().front();
  CompileOptions options;
  options.threads = 3; // a key of its own
  CompileInfo first, second, unfused;
  auto a = compileFunction(f, options, &first);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_FALSE(first.cacheHit);
  EXPECT_FALSE(first.kernels.empty());
  auto b = compileFunction(f, options, &second);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(second.cacheHit);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(first.kernels, second.kernels);
  options.fusion = false;
  auto c = compileFunction(f, options, &unfused);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(unfused.cacheHit) << "fusion is part of the key";
}

TEST(CompilerTest, UnknownDeviceIsAUserError) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(kGraph, defaultPipeline());
  ASSERT_TRUE(module.ok());
  CompileOptions options;
  options.device = "tpu";
  auto e = compileFunction(*(*module)->functions().front(), options);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(e.status().message()).find("tpu"), std::string::npos);
}

TEST(CompilerTest, EmitsLLVMIR) {
  absl::StatusOr<std::unique_ptr<Module>> module = parseSingleFunction(kGraph, defaultPipeline());
  ASSERT_TRUE(module.ok());
  CompileOptions options;
  options.cpu = "x86-64-v3";
  for (std::string_view format : {"llvm", "llvm-unopt"}) {
    absl::StatusOr<std::string> ir = emitKernels(*(*module)->functions().front(), options, format);
    ASSERT_TRUE(ir.ok()) << ir.status().message();
    EXPECT_NE(ir->find("define "), std::string::npos) << *ir;
  }
}

} // namespace
} // namespace xs
