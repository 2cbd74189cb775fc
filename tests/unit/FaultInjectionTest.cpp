// Allocation failures injected at every allocation a load and a run make on
// the CPU device (its caching allocator's source fails from the k-th request
// on, for each k up to the count a clean run takes): every failure is an
// error status, never a crash, and nothing leaks (the sanitizer build runs
// this too). The CUDA device's allocations are checked the same way on the
// recording driver (CudaDeviceTest).

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "driver/Compiler.h"
#include "ir/Parser.h"
#include "runtime/CachingAllocator.h"
#include "runtime/Tensor.h"
#include "runtime/cpu/CpuDevice.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs {
namespace {

/// Host memory that fails every request from the `failFrom`-th on (0: none).
class FailingSource : public MemorySource {
public:
  explicit FailingSource(int failFrom) : failFrom_(failFrom) {}
  void *allocate(int64_t bytes) override {
    int n = ++requests_;
    if (failFrom_ > 0 && n >= failFrom_)
      return nullptr;
    return host_->allocate(bytes);
  }
  void free(void *block) override { host_->free(block); }
  int requests() const { return requests_; }

private:
  std::shared_ptr<MemorySource> host_ = hostMemorySource();
  int failFrom_;
  std::atomic<int> requests_{0};
};

struct Program {
  const char *name;
  const char *text;
  DimBindings dims;
};

// A row kernel, a kernel with temporaries in the arena and several phases,
// a constant, a library op and results that alias an input.
const Program kPrograms[] = {
    {"softmax",
     "func @f(%x: f32[R, C]) -> (y: f32[R, C]) {\n  %y = softmax %x {axis = 1}\n  return %y\n}\n",
     {{"R", 37}, {"C", 300}}},
    {"layernorm and column sums",
     "func @f(%x: f32[R, 64], %g: f32[64]) -> (y: f32[R, 64], s: f32[64]) {\n"
     "  %b = constant {value = 0.5} : f32[64]\n"
     "  %y = layer_norm %x, %g, %b {epsilon = 1.0e-05}\n"
     "  %s = reduce_sum %y {dims = [0]}\n  return %y, %s\n}\n",
     {{"R", 1003}}},
    {"dot and bias",
     "func @f(%a: f32[R, 16], %w: f32[16, 8], %b: f32[8]) -> (y: f32[R, 8], a2: f32[R, 16]) {\n"
     "  %p = dot %a, %w\n  %bb = broadcast %b {dims = [1]} : f32[R, 8]\n"
     "  %y = add %p, %bb\n  return %y, %a\n}\n",
     {{"R", 9}}},
};

absl::StatusOr<std::vector<Tensor>> loadAndRun(const CompiledProgram &program,
                                               const std::vector<Tensor> &inputs,
                                               std::shared_ptr<MemorySource> memory) {
  CpuDeviceOptions options;
  options.threads = 2;
  options.memory = std::move(memory);
  std::unique_ptr<Device> device = createCpuDevice(options);
  absl::StatusOr<std::shared_ptr<Executable>> executable = device->load(program);
  if (!executable.ok())
    return executable.status();
  std::vector<TensorView> views;
  for (const Tensor &t : inputs)
    views.push_back(t.view());
  return (*executable)->run(views);
}

TEST(FaultInjectionTest, EveryFailedHostAllocationIsAnError) {
  for (const Program &p : kPrograms) {
    SCOPED_TRACE(p.name);
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(p.text, "fault.xs");
    ASSERT_TRUE(module.ok()) << module.status();
    ASSERT_TRUE(runPipeline(**module, defaultPipeline(), {}).ok());
    const Function &f = *(*module)->functions().front();
    CompileOptions options;
    options.useCache = false;
    absl::StatusOr<CompiledProgram> program = compileProgram(f, options);
    ASSERT_TRUE(program.ok()) << program.status();
    std::mt19937_64 rng(7);
    std::vector<Tensor> inputs;
    for (const auto &param : f.params()) {
      std::vector<int64_t> shape;
      for (const DimExpr &d : param->type().shape())
        shape.push_back(*d.evaluate(p.dims));
      ElementType t = param->type().elementType();
      inputs.push_back(toTensor(randomTensor(t, shape, defaultRandomRange(t), rng)));
    }
    // The allocations a clean load and run make.
    auto counting = std::make_shared<FailingSource>(0);
    absl::StatusOr<std::vector<Tensor>> clean = loadAndRun(*program, inputs, counting);
    ASSERT_TRUE(clean.ok()) << clean.status();
    int requests = counting->requests();
    ASSERT_GT(requests, 0);
    for (int k = 1; k <= requests; ++k) {
      auto failing = std::make_shared<FailingSource>(k);
      absl::StatusOr<std::vector<Tensor>> result = loadAndRun(*program, inputs, failing);
      ASSERT_FALSE(result.ok()) << "allocation " << k << " of " << requests
                                << " failed, but the run succeeded";
      EXPECT_EQ(result.status().code(), absl::StatusCode::kResourceExhausted)
          << "allocation " << k << ": " << result.status();
      EXPECT_NE(result.status().message().find("out of memory"), std::string::npos)
          << result.status();
    }
  }
}

} // namespace
} // namespace xs
