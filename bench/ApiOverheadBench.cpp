// xstitch-bench-api: what a run through the C API costs over the kernels'
// own time, for tiny graphs where that cost is all there is. For each graph,
// measured side by side in one run.
// On the CPU (the default):
//   kernels     the launch steps' own time (the runtime's step timings)
//   runtime     Executable::execute, the runtime below the C API
//   C API       xs_executable_run writing into the caller's outputs
//   C API+alloc xs_executable_run handing out DLManagedTensors (and their
//               deleters called)
// On a GPU (--device=cuda[:N] or hip[:N]), every tensor in GPU memory, the
// caller's stream given:
//   kernels     the launch steps' own time (the vendor's events around each)
//   queue       xs_executable_run itself: the host's time to queue a run
//   per call    back-to-back runs, the stream waited for after the last:
//               a run's cost in steady state (the larger of queueing and
//               the GPU's work)
//   run+sync    a run and a wait for its stream: the latency of one run
//   +alloc      per call with outputs xstitch allocates and hands out
// Usage: xstitch-bench-api [--device cpu|cuda[:N]|hip[:N]] [--iters N] [--threads N]
// The table and the command that made it are recorded in docs/performance.md.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "bench/GpuDrivers.h"
#include "driver/Compiler.h"
#include "include/xstitch/xstitch.h"
#include "ir/Parser.h"
#include "runtime/Executable.h"
#include "runtime/devices/Devices.h"
#include "runtime/gpu/GpuContext.h"
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
    // One step of a GRU cell at batch 256 (hidden 256): the projections'
    // sums, sigmoid gates, candidate and blend, after the matrix products.
    {"gru_gates [256, 256]",
     "func @f(%xp: f32[B, 768], %hp: f32[B, 768], %h: f32[B, 256], %b: f32[768])\n"
     "    -> (y: f32[B, 256]) {\n"
     "  %b_b = broadcast %b {dims = [1]} : f32[B, 768]\n"
     "  %gx = add %xp, %b_b\n"
     "  %gx_r = slice %gx {start = [0, 0], limit = [B, 256]}\n"
     "  %gx_z = slice %gx {start = [0, 256], limit = [B, 512]}\n"
     "  %gx_n = slice %gx {start = [0, 512], limit = [B, 768]}\n"
     "  %hp_r = slice %hp {start = [0, 0], limit = [B, 256]}\n"
     "  %hp_z = slice %hp {start = [0, 256], limit = [B, 512]}\n"
     "  %hp_n = slice %hp {start = [0, 512], limit = [B, 768]}\n"
     "  %ar = add %gx_r, %hp_r\n"
     "  %r = sigmoid %ar\n"
     "  %az = add %gx_z, %hp_z\n"
     "  %z = sigmoid %az\n"
     "  %rh = mul %r, %hp_n\n"
     "  %an = add %gx_n, %rh\n"
     "  %n = tanh %an\n"
     "  %one = constant {value = 1.0} : f32[B, 256]\n"
     "  %zc = sub %one, %z\n"
     "  %a = mul %zc, %n\n"
     "  %c = mul %z, %h\n"
     "  %y = add %a, %c\n"
     "  return %y\n}\n",
     {{256, 768}, {256, 768}, {256, 256}, {768}}},
};

const std::vector<FlagSpec> kFlags = {
    {"device", true, false, "cpu|cuda[:N]|hip[:N]", "where to run (default cpu)"},
    {"iters", true, false, "N", "timed batches of 1000 runs per measurement (default 15)"},
    {"threads", true, false, "N", "CPU worker threads (default: all cores)"},
    {"help", false, false, "", "show this help"},
};

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Median over `batches` of the seconds one call of `fn` takes (each batch
/// 1000 calls, after one untimed batch); `finish` ends each batch (waits
/// for a GPU's queued work).
template <typename Fn, typename Finish> double perCall(Fn &&fn, int batches, Finish &&finish) {
  constexpr int kCalls = 1000;
  std::vector<double> times;
  for (int b = 0; b <= batches; ++b) {
    auto start = Clock::now();
    for (int i = 0; i < kCalls; ++i)
      fn();
    finish();
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (b > 0)
      times.push_back(seconds / kCalls);
  }
  return median(times);
}

template <typename Fn> double perCall(Fn &&fn, int batches) {
  return perCall(fn, batches, [] {});
}

bool check(xs_status_t status) {
  if (status == nullptr)
    return true;
  std::fprintf(stderr, "xstitch-bench-api: %s\n", xs_status_message(status));
  xs_status_free(status);
  return false;
}

/// One case compiled through the C API, with its inputs and caller-owned
/// outputs described for `device` (the data pointers are the caller's to
/// fill: host or GPU memory).
struct ApiCase {
  xs_module_t *module = nullptr;
  xs_executable_t *executable = nullptr;
  std::vector<DLTensor> inputs, outputs;
  std::vector<int64_t> outputShapes = std::vector<int64_t>(16);
  std::vector<int64_t> outputElements;
  ~ApiCase() {
    xs_executable_release(executable);
    xs_module_release(module);
  }
};

bool prepare(xs_context_t *context, const TinyCase &c, const char *deviceName, DLDevice device,
             const std::vector<void *> &inputData, ApiCase &api) {
  xs_compile_options_t options;
  xs_compile_options_init(&options);
  options.device = deviceName;
  if (!check(
          xs_module_create_from_bytes(c.text, std::string(c.text).size(), nullptr, &api.module)) ||
      !check(xs_executable_compile(context, api.module, &options, &api.executable)))
    return false;
  for (size_t i = 0; i < c.inputShapes.size(); ++i) {
    const std::vector<int64_t> &shape = c.inputShapes[i];
    DLTensor t{};
    t.data = inputData[i];
    t.device = device;
    t.ndim = static_cast<int32_t>(shape.size());
    t.dtype = {kDLFloat, 32, 1};
    t.shape = const_cast<int64_t *>(shape.data());
    api.inputs.push_back(t);
  }
  size_t numOutputs = xs_executable_output_count(api.executable);
  size_t count = 0;
  if (!check(xs_executable_output_shapes(api.executable, api.inputs.data(), api.inputs.size(),
                                         api.outputShapes.data(), api.outputShapes.size(), &count)))
    return false;
  for (size_t o = 0, offset = 0; o < numOutputs; ++o) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    if (!check(xs_executable_output_desc(api.executable, o, &desc)))
      return false;
    int64_t n = 1;
    for (int32_t d = 0; d < desc.ndim; ++d)
      n *= api.outputShapes[offset + static_cast<size_t>(d)];
    api.outputElements.push_back(n);
    DLTensor t{};
    t.device = device;
    t.ndim = desc.ndim;
    t.dtype = desc.dtype;
    t.shape = &api.outputShapes[offset];
    api.outputs.push_back(t);
    offset += static_cast<size_t>(desc.ndim);
  }
  return true;
}

/// Seconds per run that hands out its outputs (DLManagedTensors, deleted
/// at once), as perCall; `ok` turns false on an error.
template <typename Finish>
double perCallHandingOut(const ApiCase &api, const xs_run_args_t &runArgs, int iters, bool &ok,
                         Finish &&finish) {
  std::vector<DLManagedTensor *> managed(api.outputs.size());
  xs_run_args_t allocArgs = runArgs;
  allocArgs.outputs = nullptr;
  allocArgs.num_outputs = 0;
  allocArgs.out_managed = managed.data();
  return perCall(
      [&] {
        ok &= check(xs_executable_run(api.executable, &allocArgs));
        for (DLManagedTensor *t : managed)
          if (t != nullptr)
            t->deleter(t);
      },
      iters, finish);
}

int64_t elements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int runCpu(xs_context_t *context, int iters, int threads) {
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
    std::vector<TensorView> views;
    for (const std::vector<int64_t> &shape : c.inputShapes) {
      data.emplace_back(static_cast<size_t>(elements(shape)), 0.5f);
      views.push_back(TensorView{ElementType::F32, shape, data.back().data()});
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
    double kernels = median(stepTimes);
    double runtime = perCall([&] { (void)(*executable)->execute(request); }, iters);

    // The same graph through the C API.
    ApiCase api;
    std::vector<void *> inputData;
    for (std::vector<float> &d : data)
      inputData.push_back(d.data());
    if (!prepare(context, c, "cpu", {kDLCPU, 0}, inputData, api))
      return 3;
    std::vector<std::vector<float>> outputData;
    for (size_t o = 0; o < api.outputs.size(); ++o) {
      outputData.emplace_back(static_cast<size_t>(api.outputElements[o]));
      api.outputs[o].data = outputData.back().data();
    }
    xs_run_args_t runArgs;
    xs_run_args_init(&runArgs);
    runArgs.inputs = api.inputs.data();
    runArgs.num_inputs = api.inputs.size();
    runArgs.outputs = api.outputs.data();
    runArgs.num_outputs = api.outputs.size();
    bool ok = true;
    double apiTime =
        perCall([&] { ok &= check(xs_executable_run(api.executable, &runArgs)); }, iters);
    double apiAlloc = perCallHandingOut(api, runArgs, iters, ok, [] {});
    if (!ok)
      status = 3;
    std::printf("%-28s %9.2f %9.2f %9.2f %12.2f %15.2f\n", c.name, kernels * 1e6, runtime * 1e6,
                apiTime * 1e6, apiAlloc * 1e6, (apiTime - kernels) * 1e6);
  }
  return status;
}

int runGpu(xs_context_t *context, const DeviceSpec &spec, int iters) {
  const std::string &device = spec.name;
  const int ordinal = spec.ordinal;
  absl::StatusOr<std::shared_ptr<const gpu::GpuDriver>> driver = gpuDriverOf(spec);
  absl::StatusOr<std::shared_ptr<gpu::GpuContext>> gpu =
      driver.ok() ? gpu::GpuContext::create(*driver, ordinal)
                  : absl::StatusOr<std::shared_ptr<gpu::GpuContext>>(driver.status());
  if (!gpu.ok()) {
    std::fprintf(stderr, "xstitch-bench-api: %s\n", std::string(gpu.status().message()).c_str());
    return 2;
  }
  gpu::GpuContext &ctx = **gpu;
  absl::StatusOr<gpu::GpuContext::CurrentScope> current = ctx.makeCurrent();
  absl::StatusOr<gpu::StreamHandle> stream = ctx.acquireStream();
  if (!current.ok() || !stream.ok())
    return 3;
  auto synchronize = [&] { (void)ctx.driver().synchronizeStream(*stream); };
  std::printf("xstitch-bench-api: microseconds per run on %s (%s), GPU tensors, the caller's "
              "stream; median of %d batches of 1000\n",
              device.c_str(), ctx.info().name.c_str(), iters);
  std::printf("%-28s %9s %9s %9s %9s %9s\n", "graph", "kernels", "queue", "per call", "run+sync",
              "+alloc");
  int status = 0;
  for (const TinyCase &c : kCases) {
    std::vector<std::shared_ptr<void>> blocks;
    auto deviceBlock = [&](int64_t count, float value) {
      std::vector<float> host(static_cast<size_t>(count), value);
      blocks.push_back(ctx.deviceMemory()->allocate(count * 4));
      (void)ctx.driver().copyToDevice(
          static_cast<gpu::DevicePointer>(reinterpret_cast<uintptr_t>(blocks.back().get())),
          host.data(), host.size() * 4);
      return blocks.back().get();
    };
    std::vector<void *> inputData;
    for (const std::vector<int64_t> &shape : c.inputShapes)
      inputData.push_back(deviceBlock(elements(shape), 0.5f));
    ApiCase api;
    if (!prepare(context, c, device.c_str(), {dlpackDeviceTypeOf(spec), ordinal}, inputData, api))
      return 3;
    for (size_t o = 0; o < api.outputs.size(); ++o)
      api.outputs[o].data = deviceBlock(api.outputElements[o], 0.0f);

    xs_run_args_t runArgs;
    xs_run_args_init(&runArgs);
    runArgs.inputs = api.inputs.data();
    runArgs.num_inputs = api.inputs.size();
    runArgs.outputs = api.outputs.data();
    runArgs.num_outputs = api.outputs.size();
    runArgs.stream = *stream;
    bool ok = true;
    auto run = [&] { ok &= check(xs_executable_run(api.executable, &runArgs)); };

    // The kernels' own time: the step timer's events.
    struct Steps {
      double seconds = 0;
    } steps;
    xs_run_args_t timedArgs = runArgs;
    timedArgs.step_timer = [](void *data, const char *, double seconds) {
      static_cast<Steps *>(data)->seconds += seconds;
    };
    timedArgs.step_timer_data = &steps;
    std::vector<double> kernelTimes;
    for (int i = 0; i < 100 * iters; ++i) {
      steps.seconds = 0;
      ok &= check(xs_executable_run(api.executable, &timedArgs));
      kernelTimes.push_back(steps.seconds);
    }
    double kernels = median(kernelTimes);
    // The host's time inside the call, the GPU kept busy enough that
    // queueing never waits.
    std::vector<double> queueTimes;
    for (int b = 0; b < iters; ++b) {
      for (int i = 0; i < 1000; ++i) {
        auto start = Clock::now();
        run();
        queueTimes.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      }
      synchronize();
    }
    double queue = median(queueTimes);
    double perRun = perCall(run, iters, synchronize);
    double latency = perCall(
        [&] {
          run();
          synchronize();
        },
        iters);
    double alloc = perCallHandingOut(api, runArgs, iters, ok, synchronize);
    synchronize();
    if (!ok)
      status = 3;
    std::printf("%-28s %9.2f %9.2f %9.2f %9.2f %9.2f\n", c.name, kernels * 1e6, queue * 1e6,
                perRun * 1e6, latency * 1e6, alloc * 1e6);
  }
  ctx.releaseStream(*stream);
  return status;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::fprintf(stderr, "xstitch-bench-api: error: %s\n",
                 std::string(args.status().message()).c_str());
    return 2;
  }
  if (args->has("help")) {
    std::printf("usage: xstitch-bench-api [--device cpu|cuda[:N]|hip[:N]] [--iters N] "
                "[--threads N]\n%s",
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
  std::string device = args->has("device") ? args->get("device") : "cpu";
  absl::StatusOr<DeviceSpec> spec = parseDeviceName(device);
  if (device != "cpu" && (!spec.ok() || !isPresentGpu(*spec))) {
    std::fprintf(stderr,
                 "xstitch-bench-api: error: --device takes cpu, cuda[:N] or hip[:N], not '%s'\n",
                 device.c_str());
    return 2;
  }

  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = threads;
  contextOptions.cache_dir = "off"; // a benchmark leaves no cache entries behind
  xs_context_t *context = nullptr;
  if (!check(xs_context_create(&contextOptions, &context)))
    return 3;
  int status = device == "cpu" ? runCpu(context, iters, threads) : runGpu(context, *spec, iters);
  xs_context_release(context);
  return status;
}

} // namespace
} // namespace xs::bench

int main(int argc, char **argv) { return xs::bench::run(argc, argv); }
