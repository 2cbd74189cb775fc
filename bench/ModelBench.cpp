// xstitch-bench-model: a whole model through the C API, as a framework takes
// it: the module (import and canonicalization), the cold compile, the peak
// memory, and the median time of a run with random inputs.
//
// Usage: xstitch-bench-model MODEL [--dim=SYM=N ...] [--threads=N] [--iters=N] [--json]
// bench/exported/run.sh runs it beside ONNX Runtime; docs/performance.md
// records the table and the command.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/BenchSupport.h"
#include "include/xstitch/xstitch.h"
#include "tools/common/CommandLine.h"

namespace xs::bench {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"dim", true, true, "SYM=N", "the value of a symbolic dim of the inputs (repeatable)"},
    {"threads", true, false, "N", "CPU worker threads (default: all cores)"},
    {"iters", true, false, "N", "timed runs after one warm-up (default 10)"},
    {"json", false, false, "", "print one JSON object instead of the table"},
    {"help", false, false, "", "show this help"},
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double peakResidentMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

/// Exits with the status's message when it is an error.
void check(xs_status_t status, const char *what) {
  if (status == nullptr)
    return;
  std::fprintf(stderr, "xstitch-bench-model: error: %s: %s\n", what, xs_status_message(status));
  xs_status_free(status);
  std::exit(1);
}

/// Memory of one input, filled with values in [-1, 1) (integers: 0, a
/// valid index for any label or gather input).
struct InputBuffer {
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;
  DLTensor tensor{};
};

InputBuffer makeInput(const xs_tensor_desc_t &desc, const std::map<std::string, int64_t> &dims,
                      uint32_t seed) {
  InputBuffer in;
  int64_t count = 1;
  for (int32_t d = 0; d < desc.ndim; ++d) {
    const xs_dim_t &dim = desc.dims[d];
    int64_t size = dim.size;
    if (size < 0) {
      auto it = dims.find(dim.expr != nullptr ? dim.expr : "");
      if (it == dims.end()) {
        std::fprintf(stderr,
                     "xstitch-bench-model: error: input '%s' has the dim %s; give its value with "
                     "--dim=%s=N\n",
                     desc.name, dim.expr, dim.expr);
        std::exit(2);
      }
      size = it->second;
    }
    in.shape.push_back(size);
    count *= size;
  }
  size_t elementBytes = (desc.dtype.bits * desc.dtype.lanes + 7) / 8;
  in.bytes.assign(static_cast<size_t>(count) * elementBytes, 0);
  if (desc.dtype.code == kDLFloat && desc.dtype.bits == 32) {
    auto *values = reinterpret_cast<float *>(in.bytes.data());
    for (int64_t i = 0; i < count; ++i) {
      seed = seed * 1103515245u + 12345u;
      values[i] = static_cast<float>(seed) / 4294967296.0f * 2.0f - 1.0f;
    }
  }
  in.tensor.data = in.bytes.data();
  in.tensor.device = {kDLCPU, 0};
  in.tensor.ndim = desc.ndim;
  in.tensor.dtype = desc.dtype;
  in.tensor.shape = in.shape.data();
  return in;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::fprintf(stderr, "xstitch-bench-model: error: %s\n",
                 std::string(args.status().message()).c_str());
    return 2;
  }
  if (args->has("help") || args->positional().size() != 1) {
    std::printf("usage: xstitch-bench-model MODEL [options]\n%s", formatFlagHelp(kFlags).c_str());
    return args->has("help") ? 0 : 2;
  }
  const std::string path = args->positional()[0];
  std::map<std::string, int64_t> dims;
  for (const std::string &binding : args->getAll("dim")) {
    std::pair<std::string, std::string> kv = absl::StrSplit(binding, absl::MaxSplits('=', 1));
    int64_t value = 0;
    if (!absl::SimpleAtoi(kv.second, &value) || value < 0) {
      std::fprintf(stderr, "xstitch-bench-model: error: --dim=%s: write SYM=N\n", binding.c_str());
      return 2;
    }
    dims[kv.first] = value;
  }
  int threads = 0, iters = 10;
  if ((args->has("threads") && !absl::SimpleAtoi(args->get("threads"), &threads)) ||
      (args->has("iters") && (!absl::SimpleAtoi(args->get("iters"), &iters) || iters < 1))) {
    std::fprintf(stderr, "xstitch-bench-model: error: --threads and --iters take numbers\n");
    return 2;
  }

  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = threads;
  xs_context_t *context = nullptr;
  check(xs_context_create(&contextOptions, &context), "creating the context");

  auto start = std::chrono::steady_clock::now();
  xs_module_t *module = nullptr;
  check(xs_module_create_from_file(path.c_str(), nullptr, &module), path.c_str());
  double moduleSeconds = secondsSince(start);
  double moduleMiB = peakResidentMiB();

  xs_compile_options_t compileOptions;
  xs_compile_options_init(&compileOptions);
  compileOptions.device = "cpu";
  start = std::chrono::steady_clock::now();
  xs_executable_t *executable = nullptr;
  check(xs_executable_compile(context, module, &compileOptions, &executable), "compiling");
  double compileSeconds = secondsSince(start);
  xs_compile_info_t info;
  xs_compile_info_init(&info);
  check(xs_executable_compile_info(executable, &info), "reading the compile information");

  std::vector<InputBuffer> inputs;
  for (size_t i = 0; i < xs_executable_input_count(executable); ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    check(xs_executable_input_desc(executable, i, &desc), "describing an input");
    inputs.push_back(makeInput(desc, dims, static_cast<uint32_t>(12345 + i)));
  }
  std::vector<DLTensor> tensors;
  for (const InputBuffer &in : inputs)
    tensors.push_back(in.tensor);
  std::vector<DLManagedTensor *> outputs(xs_executable_output_count(executable), nullptr);
  xs_run_args_t runArgs;
  xs_run_args_init(&runArgs);
  runArgs.inputs = tensors.data();
  runArgs.num_inputs = tensors.size();
  runArgs.out_managed = outputs.data();
  int64_t ioBytes = 0;
  for (const InputBuffer &in : inputs)
    ioBytes += static_cast<int64_t>(in.bytes.size());
  std::vector<double> times;
  for (int i = 0; i <= iters; ++i) {
    start = std::chrono::steady_clock::now();
    check(xs_executable_run(executable, &runArgs), "running");
    double seconds = secondsSince(start);
    for (DLManagedTensor *&out : outputs) {
      if (i == 0 && out != nullptr) {
        int64_t count = 1;
        for (int32_t d = 0; d < out->dl_tensor.ndim; ++d)
          count *= out->dl_tensor.shape[d];
        ioBytes += count * ((out->dl_tensor.dtype.bits + 7) / 8);
      }
      if (out != nullptr && out->deleter != nullptr)
        out->deleter(out);
      out = nullptr;
    }
    if (i > 0) // the first run is the warm-up
      times.push_back(seconds);
  }
  std::sort(times.begin(), times.end());
  double runMs = times[times.size() / 2] * 1e3;
  // The memory floor, measured now: the inputs and outputs moved once at
  // the bandwidth of a large parallel copy.
  double bandwidth = measureCopyBandwidth(size_t(512) << 20, threads > 0 ? threads : 0);
  double floorMs = static_cast<double>(ioBytes) / bandwidth * 1e3;
  double fileMiB = static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
  std::string name = std::filesystem::path(path).stem().string();

  if (args->has("json")) {
    std::printf("{\"model\": \"%s\", \"file_mib\": %.1f, \"module_s\": %.3f, "
                "\"module_peak_mib\": %.1f, \"compile_s\": %.3f, \"plan_s\": %.3f, "
                "\"llvm_s\": %.3f, \"kernels\": %lld, \"run_ms\": %.4f, \"floor_ms\": %.4f}\n",
                name.c_str(), fileMiB, moduleSeconds, moduleMiB, compileSeconds, info.plan_seconds,
                info.llvm_seconds, static_cast<long long>(info.kernel_count), runMs, floorMs);
  } else {
    std::printf("%-16s %9s %9s %12s %10s %8s %9s %9s\n", "model", "file MiB", "module s",
                "peak MiB", "compile s", "kernels", "run ms", "of floor");
    std::printf("%-16s %9.1f %9.3f %12.1f %10.3f %8lld %9.3f %9.2f\n", name.c_str(), fileMiB,
                moduleSeconds, moduleMiB, compileSeconds, static_cast<long long>(info.kernel_count),
                runMs, floorMs / runMs);
  }
  xs_executable_release(executable);
  xs_module_release(module);
  xs_context_release(context);
  return 0;
}

} // namespace
} // namespace xs::bench

int main(int argc, char **argv) { return xs::bench::run(argc, argv); }
