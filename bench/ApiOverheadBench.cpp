// xstitch-bench-api: what a run through the C API costs over the kernels'
// own time, for tiny graphs where that cost is all there is. For each graph,
// measured side by side in one run on the CPU:
//   kernels     the launch steps' own time (the runtime's step timings)
//   runtime     Executable::execute, the runtime below the C API
//   C API       xs_executable_run writing into the caller's outputs
//   C API+alloc xs_executable_run handing out DLManagedTensors (and their
//               deleters called)
// Usage: xstitch-bench-api [--iters N] [--threads N]
// The table and the command that made it are recorded in docs/performance.md.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "driver/Compiler.h"
#include "include/xstitch/xstitch.h"
#include "ir/Parser.h"
#include "runtime/Executable.h"
#include "tools/common/CommandLine.h"
#include "transforms/Pass.h"

namespace xs::bench {
namespace {

struct TinyCase {
  const char *name;
  const char *text;
  std::vector<std::vector<int64_t>> inputShapes; // f32 inputs
};

const TinyCase kCases[] = {
    {"add [16]",
     "func @f(%a: f32[N], %b: f32[N]) -> (y: f32[N]) {\n  %y = add %a, %b\n  return %y\n}\n",
     {{16}, {16}}},
    {"layernorm [4, 64]",
     "func @f(%x: f32[R, 64], %g: f32[64], %b: f32[64]) -> (y: f32[R, 64]) {\n"
     "  %y = layer_norm %x, %g, %b {epsilon = 1.0e-05}\n  return %y\n}\n",
     {{4, 64}, {64}, {64}}},
    {"softmax + row sum [8, 32]",
     "func @f(%x: f32[R, C]) -> (y: f32[R, C], s: f32[R]) {\n"
     "  %y = softmax %x {axis = 1}\n  %s = reduce_sum %x {dims = [1]}\n  return %y, %s\n}\n",
     {{8, 32}}},
};

const std::vector<FlagSpec> kFlags = {
    {"iters", true, false, "N", "timed batches of 1000 runs per measurement (default 15)"},
    {"threads", true, false, "N", "CPU worker threads (default: all cores)"},
    {"help", false, false, "", "show this help"},
};

/// Median over `batches` of the seconds one call of `fn` takes (each batch
/// 1000 calls, after one untimed batch).
template <typename Fn> double perCall(Fn &&fn, int batches) {
  constexpr int kCalls = 1000;
  std::vector<double> times;
  for (int b = 0; b <= batches; ++b) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      fn();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (b > 0)
      times.push_back(seconds / kCalls);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

bool check(xs_status_t status) {
  if (status == nullptr)
    return true;
  std::fprintf(stderr, "xstitch-bench-api: %s\n", xs_status_message(status));
  xs_status_free(status);
  return false;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::fprintf(stderr, "xstitch-bench-api: error: %s\n",
                 std::string(args.status().message()).c_str());
    return 2;
  }
  if (args->has("help")) {
    std::printf("usage: xstitch-bench-api [--iters N] [--threads N]\n%s",
                formatFlagHelp(kFlags).c_str());
    return 0;
  }
  int iters = 15, threads = 0;
  if ((args->has("iters") && (!absl::SimpleAtoi(args->get("iters"), &iters) || iters < 1)) ||
      (args->has("threads") &&
       (!absl::SimpleAtoi(args->get("threads"), &threads) || threads < 0))) {
    std::fprintf(stderr,
                 "xstitch-bench-api: error: --iters and --threads take positive integers\n");
    return 2;
  }

  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = threads;
  contextOptions.cache_dir = "off"; // a benchmark leaves no cache entries behind
  xs_context_t *context = nullptr;
  if (!check(xs_context_create(&contextOptions, &context)))
    return 3;
  std::printf("xstitch-bench-api: microseconds per run on the CPU, median of %d batches of 1000\n",
              iters);
  std::printf("%-28s %9s %9s %9s %12s %15s\n", "graph", "kernels", "runtime", "C API",
              "C API+alloc", "API - kernels");
  int status = 0;
  for (const TinyCase &c : kCases) {
    // The runtime's own executable, for the kernels' time and execute().
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(c.text, c.name);
    if (!module.ok() || !runPipeline(**module, defaultPipeline(), {}).ok())
      return 3;
    CompileOptions options;
    options.threads = threads;
    absl::StatusOr<std::shared_ptr<Executable>> executable =
        compileFunction(*(*module)->functions().front(), options);
    if (!executable.ok())
      return 3;

    std::vector<std::vector<float>> data;
    std::vector<DLTensor> inputs;
    std::vector<TensorView> views;
    for (const std::vector<int64_t> &shape : c.inputShapes) {
      int64_t n = 1;
      for (int64_t d : shape)
        n *= d;
      data.emplace_back(static_cast<size_t>(n), 0.5f);
    }
    for (size_t i = 0; i < c.inputShapes.size(); ++i) {
      DLTensor t{};
      t.data = data[i].data();
      t.device = {kDLCPU, 0};
      t.ndim = static_cast<int32_t>(c.inputShapes[i].size());
      t.dtype = {kDLFloat, 32, 1};
      t.shape = const_cast<int64_t *>(c.inputShapes[i].data());
      inputs.push_back(t);
      views.push_back(TensorView{ElementType::F32, c.inputShapes[i], data[i].data()});
    }

    RunRequest request;
    request.inputs = views;
    // The step timings of many runs: their median is the kernels' own time.
    std::vector<double> stepTimes;
    for (int i = 0; i < 1000 * iters; ++i) {
      RunStats stats;
      (void)(*executable)->execute(request, &stats);
      double total = 0;
      for (const KernelTiming &t : stats.steps)
        total += t.seconds;
      stepTimes.push_back(total);
    }
    std::sort(stepTimes.begin(), stepTimes.end());
    double kernels = stepTimes[stepTimes.size() / 2];
    double runtime = perCall([&] { (void)(*executable)->execute(request); }, iters);

    // The same graph through the C API.
    xs_module_t *apiModule = nullptr;
    xs_executable_t *apiExecutable = nullptr;
    if (!check(
            xs_module_create_from_bytes(c.text, std::string(c.text).size(), nullptr, &apiModule)) ||
        !check(xs_executable_compile(context, apiModule, nullptr, &apiExecutable)))
      return 3;
    size_t numOutputs = xs_executable_output_count(apiExecutable);
    size_t count = 0;
    std::vector<int64_t> outputShapes(16);
    if (!check(xs_executable_output_shapes(apiExecutable, inputs.data(), inputs.size(),
                                           outputShapes.data(), outputShapes.size(), &count)))
      return 3;
    std::vector<std::vector<float>> outputData;
    std::vector<DLTensor> outputs;
    for (size_t o = 0, offset = 0; o < numOutputs; ++o) {
      xs_tensor_desc_t desc;
      xs_tensor_desc_init(&desc);
      if (!check(xs_executable_output_desc(apiExecutable, o, &desc)))
        return 3;
      int64_t n = 1;
      for (int32_t d = 0; d < desc.ndim; ++d)
        n *= outputShapes[offset + static_cast<size_t>(d)];
      outputData.emplace_back(static_cast<size_t>(n));
      DLTensor t{};
      t.device = {kDLCPU, 0};
      t.ndim = desc.ndim;
      t.dtype = desc.dtype;
      t.shape = &outputShapes[offset];
      outputs.push_back(t);
      offset += static_cast<size_t>(desc.ndim);
    }
    for (size_t o = 0; o < numOutputs; ++o)
      outputs[o].data = outputData[o].data();
    xs_run_args_t runArgs;
    xs_run_args_init(&runArgs);
    runArgs.inputs = inputs.data();
    runArgs.num_inputs = inputs.size();
    runArgs.outputs = outputs.data();
    runArgs.num_outputs = numOutputs;
    bool ok = true;
    double api = perCall([&] { ok &= check(xs_executable_run(apiExecutable, &runArgs)); }, iters);
    std::vector<DLManagedTensor *> managed(numOutputs);
    xs_run_args_t allocArgs;
    xs_run_args_init(&allocArgs);
    allocArgs.inputs = inputs.data();
    allocArgs.num_inputs = inputs.size();
    allocArgs.out_managed = managed.data();
    double apiAlloc = perCall(
        [&] {
          ok &= check(xs_executable_run(apiExecutable, &allocArgs));
          for (DLManagedTensor *t : managed)
            if (t != nullptr)
              t->deleter(t);
        },
        iters);
    if (!ok)
      status = 3;
    std::printf("%-28s %9.2f %9.2f %9.2f %12.2f %15.2f\n", c.name, kernels * 1e6, runtime * 1e6,
                api * 1e6, apiAlloc * 1e6, (api - kernels) * 1e6);
    xs_executable_release(apiExecutable);
    xs_module_release(apiModule);
  }
  xs_context_release(context);
  return status;
}

} // namespace
} // namespace xs::bench

int main(int argc, char **argv) { return xs::bench::run(argc, argv); }
