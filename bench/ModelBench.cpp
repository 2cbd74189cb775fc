// xstitch-bench-model: a whole model through the C API, as a framework takes
// it: the module (import and canonicalization), the cold compile, the peak
// memory, and the median time of a run with random inputs. With --twin, a
// second graph of the same math (the hand-written twin of an export) is
// compiled in the same process and the two run in turns, so that their ratio
// is measured side by side, not across two processes minutes apart.
//
// Usage: xstitch-bench-model MODEL [--dim=SYM=N ...] [--twin=FILE --twin-dim=SYM=N ...]
//                            [--threads=N] [--iters=N] [--json]
// bench/exported/run.sh runs it beside ONNX Runtime; docs/performance.md
// records the table and the command.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/BenchSupport.h"
#include "include/xstitch/xstitch.h"
#include "ir/FloatBits.h"
#include "tools/common/CommandLine.h"

namespace xs::bench {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"dim", true, true, "SYM=N", "the value of a symbolic dim of the inputs (repeatable)"},
    {"twin", true, false, "FILE", "also a second graph, timed in turns with MODEL"},
    {"twin-dim", true, true, "SYM=N", "the value of a symbolic dim of the twin's inputs"},
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

/// 64 bytes, so that a vector of them is aligned as PyTorch's CPU allocator
/// aligns tensors. malloc's 16 bytes (NumPy's arrays) make each 64-byte
/// load of a row straddle two cache lines: a transpose of f32[16384, 1024]
/// then took 3.4 instead of 2.8 ms (docs/performance.md).
struct alignas(64) CacheLine {
  unsigned char bytes[64];
};

/// Memory of one input, filled with values in [-1, 1) (integers: 0, a
/// valid index for any label or gather input).
struct InputBuffer {
  std::vector<int64_t> shape;
  std::vector<CacheLine> lines;
  size_t byteCount = 0;
  DLTensor tensor{};

  unsigned char *data() { return lines.empty() ? nullptr : lines.front().bytes; }
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
  in.byteCount = static_cast<size_t>(count) * elementBytes;
  in.lines.assign((in.byteCount + sizeof(CacheLine) - 1) / sizeof(CacheLine), CacheLine{});
  bool isFloat = desc.dtype.code == kDLFloat || desc.dtype.code == kDLBfloat;
  for (int64_t i = 0; isFloat && i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    double value = static_cast<double>(seed) / 4294967296.0 * 2.0 - 1.0;
    if (desc.dtype.bits == 32)
      reinterpret_cast<float *>(in.data())[i] = static_cast<float>(value);
    else if (desc.dtype.bits == 16)
      reinterpret_cast<uint16_t *>(in.data())[i] =
          desc.dtype.code == kDLBfloat ? encodeBF16(value) : encodeF16(value);
  }
  in.tensor.data = in.data();
  in.tensor.device = {kDLCPU, 0};
  in.tensor.ndim = desc.ndim;
  in.tensor.dtype = desc.dtype;
  in.tensor.shape = in.shape.data();
  return in;
}

/// `SYM=N` bindings of a repeatable flag; exits on a malformed one.
std::map<std::string, int64_t> dimBindings(const ParsedArgs &args, const char *flag) {
  std::map<std::string, int64_t> dims;
  for (const std::string &binding : args.getAll(flag)) {
    std::pair<std::string, std::string> kv = absl::StrSplit(binding, absl::MaxSplits('=', 1));
    int64_t value = 0;
    if (!absl::SimpleAtoi(kv.second, &value) || value < 0) {
      std::fprintf(stderr, "xstitch-bench-model: error: --%s=%s: write SYM=N\n", flag,
                   binding.c_str());
      std::exit(2);
    }
    dims[kv.first] = value;
  }
  return dims;
}

/// A graph compiled through the C API with its random inputs, ready to run.
struct LoadedModel {
  double moduleSeconds = 0, moduleMiB = 0, compileSeconds = 0;
  xs_compile_info_t info{};
  xs_module_t *module = nullptr;
  xs_executable_t *executable = nullptr;
  std::vector<InputBuffer> inputs;
  std::vector<DLTensor> tensors;
  std::vector<DLManagedTensor *> outputs;
  xs_run_args_t runArgs{};
  int64_t ioBytes = 0; // inputs and outputs, counted by the first run

  ~LoadedModel() {
    if (executable)
      xs_executable_release(executable);
    if (module)
      xs_module_release(module);
  }

  /// One run; its outputs are released.
  double run() {
    auto start = std::chrono::steady_clock::now();
    check(xs_executable_run(executable, &runArgs), "running");
    double seconds = secondsSince(start);
    for (DLManagedTensor *&out : outputs) {
      if (out != nullptr && out->deleter != nullptr)
        out->deleter(out);
      out = nullptr;
    }
    return seconds;
  }
};

std::unique_ptr<LoadedModel> loadModel(xs_context_t *context, const std::string &path,
                                       const std::map<std::string, int64_t> &dims) {
  auto m = std::make_unique<LoadedModel>();
  auto start = std::chrono::steady_clock::now();
  check(xs_module_create_from_file(path.c_str(), nullptr, &m->module), path.c_str());
  m->moduleSeconds = secondsSince(start);
  m->moduleMiB = peakResidentMiB();
  xs_compile_options_t compileOptions;
  xs_compile_options_init(&compileOptions);
  compileOptions.device = "cpu";
  start = std::chrono::steady_clock::now();
  check(xs_executable_compile(context, m->module, &compileOptions, &m->executable), "compiling");
  m->compileSeconds = secondsSince(start);
  xs_compile_info_init(&m->info);
  check(xs_executable_compile_info(m->executable, &m->info), "reading the compile information");
  for (size_t i = 0; i < xs_executable_input_count(m->executable); ++i) {
    xs_tensor_desc_t desc;
    xs_tensor_desc_init(&desc);
    check(xs_executable_input_desc(m->executable, i, &desc), "describing an input");
    m->inputs.push_back(makeInput(desc, dims, static_cast<uint32_t>(12345 + i)));
  }
  for (const InputBuffer &in : m->inputs) {
    m->tensors.push_back(in.tensor);
    m->ioBytes += static_cast<int64_t>(in.byteCount);
  }
  m->outputs.assign(xs_executable_output_count(m->executable), nullptr);
  xs_run_args_init(&m->runArgs);
  m->runArgs.inputs = m->tensors.data();
  m->runArgs.num_inputs = m->tensors.size();
  m->runArgs.out_managed = m->outputs.data();
  // The warm-up run, which also counts the outputs' bytes.
  check(xs_executable_run(m->executable, &m->runArgs), "running");
  for (DLManagedTensor *&out : m->outputs) {
    if (out == nullptr)
      continue;
    int64_t count = 1;
    for (int32_t d = 0; d < out->dl_tensor.ndim; ++d)
      count *= out->dl_tensor.shape[d];
    m->ioBytes += count * ((out->dl_tensor.dtype.bits + 7) / 8);
    if (out->deleter != nullptr)
      out->deleter(out);
    out = nullptr;
  }
  return m;
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
  std::map<std::string, int64_t> dims = dimBindings(*args, "dim");
  int threads = 0, iters = 10;
  if ((args->has("threads") && !absl::SimpleAtoi(args->get("threads"), &threads)) ||
      (args->has("iters") && (!absl::SimpleAtoi(args->get("iters"), &iters) || iters < 1))) {
    std::fprintf(stderr, "xstitch-bench-model: error: --threads and --iters take numbers\n");
    return 2;
  }
  if (args->has("twin-dim") && !args->has("twin")) {
    std::fprintf(stderr, "xstitch-bench-model: error: --twin-dim goes with --twin=FILE\n");
    return 2;
  }

  xs_context_options_t contextOptions;
  xs_context_options_init(&contextOptions);
  contextOptions.worker_threads = threads;
  // Compiles are timed cold: no persistent cache (bench/cache-loads.sh times
  // loads from it).
  contextOptions.cache_dir = "off";
  xs_context_t *context = nullptr;
  check(xs_context_create(&contextOptions, &context), "creating the context");
  {
    // The model first: its module's peak memory is measured before the
    // twin allocates anything.
    std::unique_ptr<LoadedModel> model = loadModel(context, path, dims);
    std::unique_ptr<LoadedModel> twin;
    if (args->has("twin"))
      twin = loadModel(context, args->get("twin"), dimBindings(*args, "twin-dim"));
    std::vector<std::function<double()>> runs{[&] { return model->run(); }};
    if (twin)
      runs.push_back([&] { return twin->run(); });
    TurnMedians timed = medianSecondsInTurns(runs, iters);
    double runMs = timed.seconds[0] * 1e3;
    // The memory floor, measured now: the inputs and outputs moved once at
    // the bandwidth of a large parallel copy.
    double bandwidth = measureCopyBandwidth(size_t(512) << 20, threads > 0 ? threads : 0);
    double floorMs = static_cast<double>(model->ioBytes) / bandwidth * 1e3;
    double fileMiB = static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
    std::string name = std::filesystem::path(path).stem().string();
    std::string twinJson =
        twin ? absl::StrFormat(", \"twin_ms\": %.4f", timed.seconds[1] * 1e3) : std::string();
    if (args->has("json")) {
      std::printf("{\"model\": \"%s\", \"file_mib\": %.1f, \"module_s\": %.3f, "
                  "\"module_peak_mib\": %.1f, \"compile_s\": %.3f, \"plan_s\": %.3f, "
                  "\"llvm_s\": %.3f, \"kernels\": %lld, \"run_ms\": %.4f, \"floor_ms\": %.4f%s}\n",
                  name.c_str(), fileMiB, model->moduleSeconds, model->moduleMiB,
                  model->compileSeconds, model->info.plan_seconds, model->info.llvm_seconds,
                  static_cast<long long>(model->info.kernel_count), runMs, floorMs,
                  twinJson.c_str());
    } else {
      std::printf("%-16s %9s %9s %12s %10s %8s %9s %9s%s\n", "model", "file MiB", "module s",
                  "peak MiB", "compile s", "kernels", "run ms", "of floor",
                  twin ? "   twin ms" : "");
      std::printf("%-16s %9.1f %9.3f %12.1f %10.3f %8lld %9.3f %9.2f", name.c_str(), fileMiB,
                  model->moduleSeconds, model->moduleMiB, model->compileSeconds,
                  static_cast<long long>(model->info.kernel_count), runMs, floorMs / runMs);
      if (twin)
        std::printf(" %9.3f", timed.seconds[1] * 1e3);
      std::printf("\n");
    }
  }
  xs_context_release(context);
  return 0;
}

} // namespace
} // namespace xs::bench

int main(int argc, char **argv) { return xs::bench::run(argc, argv); }
