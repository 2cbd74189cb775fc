// xstitch-bench-workloads: every workload of the suite (shared/workloads.md,
// in examples/) at its perf shape, fused and unfused, against the memory
// floor measured in the same run: times, fraction of the floor, kernel
// counts, cold compile time and a compile-cache hit. --json FILE also writes
// the numbers for bench/run-workloads.sh, which adds the peers.
// --device=cuda[:N] or hip[:N] runs on an NVIDIA or AMD GPU: the floor is a
// device-to-device copy, and a run's time is its kernels' (each launch timed
// to completion), not the copies of inputs and results between host and GPU.
// --specialized and --amdgpu-shuffles=compare time two compiles of each
// workload in turns instead.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/BenchSupport.h"
#include "bench/GpuCopyFloor.h"
#include "driver/Compiler.h"
#include "ir/Parser.h"
#include "runtime/Tensor.h"
#include "runtime/devices/DevicePlatform.h"
#include "runtime/devices/Devices.h"
#include "tools/LibraryRun.h"
#include "tools/common/CommandLine.h"
#include "tools/common/ExitCodes.h"
#include "tools/common/RandomTensor.h"
#include "transforms/Pass.h"

namespace xs {
namespace {

using bench::CopyFloor;
using bench::medianSecondsInTurns;

struct Workload {
  const char *name;
  DimBindings dims; // the perf shape
};

const std::vector<Workload> kWorkloads = {
    {"layernorm", {{"R", 4096}}},
    {"skip_layernorm", {{"B", 32}, {"S", 128}}},
    {"bias_gelu", {{"R", 4096}}},
    {"gelu_tanh", {{"R", 4096}}},
    {"attn_softmax", {{"B", 8}, {"S", 128}}},
    {"rmsnorm", {{"T", 2048}}},
    {"layernorm_bwd", {{"R", 16384}}},
    {"softmax_small_rows", {{"R", 750000}}},
    {"softmax_long_rows", {{"R", 64}, {"C", 30000}}},
    {"bias_grad", {{"R", 65536}}},
    {"heads_transpose", {{"B", 32}, {"S", 128}}},
    {"bert_layer", {{"B", 32}, {"S", 128}}},
    {"layernorm_f16", {{"R", 16384}}},
    {"layernorm_bf16", {{"R", 16384}}},
    {"softmax_f16", {{"R", 16384}}},
    {"softmax_bf16", {{"R", 16384}}},
};

const std::vector<FlagSpec> kFlags = {
    {"examples", true, false, "DIR", "the examples folder (default: examples)"},
    {"device", true, false, "cpu|cuda[:N]|hip[:N]", "where to run (default cpu)"},
    {"threads", true, false, "N", "worker threads (default: all cores)"},
    {"iters", true, false, "N", "timed runs per case (default 20)"},
    {"only", true, false, "NAME", "run one workload"},
    {"list", false, false, "", "print the workloads' names, one per line, and exit"},
    {"shapes", false, false, "",
     "print each workload's name and perf shape as xstitch-run flags (layernorm --dim R=4096), "
     "one per line, and exit"},
    {"json", true, false, "FILE", "also write the results as JSON lines"},
    {"specialized", false, false, "",
     "instead: each workload's shape-generic compile against one specialized to its perf shape "
     "(dims as constants), run in turns"},
    {"amdgpu-shuffles", true, false, "dpp|bpermute|compare",
     "the lane exchanges of AMD GPU reductions (default dpp); compare: instead, each workload "
     "compiled with DPP against ds_bpermute, run in turns"},
    {"help", false, false, "", "show this help"},
};

/// A compiled workload and what compiling it cost. The driver's executable
/// gives the plan and the compile times (cold ones with the cache off); the
/// runs go through the C API, as an integrator's do.
struct Compiled {
  std::shared_ptr<Executable> executable;
  std::unique_ptr<LibraryExecutable> library;
  int kernels = 0;            // memory-intensive kernel launches per run
  double kernelBytes = 0;     // their minimum bytes (inputs + outputs)
  double compileSeconds = 0;  // median of cold compiles
  double cacheHitSeconds = 0; // median of cache hits
};

absl::StatusOr<Compiled> compileTimed(const Function &f, const std::string &text,
                                      const std::string &path, const DimBindings &dims,
                                      CompileOptions options) {
  Compiled c;
  std::vector<double> compiles;
  options.useCache = false;
  for (int i = 0; i < 3; ++i) {
    CompileInfo info;
    absl::StatusOr<std::shared_ptr<Executable>> compiled = compileFunction(f, options, &info);
    if (!compiled.ok())
      return compiled.status();
    compiles.push_back(info.compileSeconds);
    c.executable = *compiled;
  }
  std::sort(compiles.begin(), compiles.end());
  c.compileSeconds = compiles[1];
  options.useCache = true;
  CompileInfo first, hit;
  if (absl::StatusOr<std::shared_ptr<Executable>> cached = compileFunction(f, options, &first);
      !cached.ok())
    return cached.status();
  std::vector<double> hits;
  for (int i = 0; i < 5; ++i) {
    if (absl::StatusOr<std::shared_ptr<Executable>> cached = compileFunction(f, options, &hit);
        !cached.ok())
      return cached.status();
    hits.push_back(hit.compileSeconds);
  }
  std::sort(hits.begin(), hits.end());
  c.cacheHitSeconds = hits[2];
  XS_ASSIGN_OR_RETURN(c.library, LibraryExecutable::compileText(text, path, f.name(), options));
  for (const HostStep &step : c.executable->plan().steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    ++c.kernels;
    if (absl::StatusOr<int64_t> bytes = step.minimumBytes.evaluate(dims); bytes.ok())
      c.kernelBytes += static_cast<double>(*bytes);
  }
  return c;
}

/// Median times of a run of each executable, and of its memory-intensive
/// kernels' share; the executables run in turns (bench::medianSecondsInTurns).
absl::StatusOr<bench::TurnMedians> timeInTurns(const std::vector<const Compiled *> &compiled,
                                               const std::vector<TensorView> &views, int iters) {
  std::vector<std::function<double()>> runs;
  for (const Compiled *c : compiled) {
    const Executable &exe = *c->executable;
    const LibraryExecutable &library = *c->library;
    if (absl::StatusOr<double> first = library.timeViews(views, nullptr); !first.ok())
      return first.status();
    runs.push_back([&exe, &library, &views] {
      RunStats stats;
      (void)library.timeViews(views, &stats);
      double launched = 0;
      for (size_t s = 0, k = 0; s < exe.plan().steps.size() && k < stats.steps.size(); ++s) {
        const HostStep &step = exe.plan().steps[s];
        if (step.kind == HostStep::Kind::Alias)
          continue;
        if (step.kind == HostStep::Kind::Launch)
          launched += stats.steps[k].seconds;
        ++k;
      }
      return launched;
    });
  }
  return medianSecondsInTurns(runs, iters);
}

int fail(const std::string &what) {
  std::fprintf(stderr, "xstitch-bench-workloads: error: %s\n", what.c_str());
  return 3;
}

/// A failed status as xstitch-run reports it: no driver or no GPU is the
/// user's (exit 2), anything else a bug (3).
int fail(const absl::Status &status) {
  std::fprintf(stderr, "xstitch-bench-workloads: error: %s\n",
               std::string(status.message()).c_str());
  return exitCodeFor(status);
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::fprintf(stderr, "xstitch-bench-workloads: error: %s\n",
                 std::string(args.status().message()).c_str());
    return 2;
  }
  if (args->has("help")) {
    std::printf("usage: xstitch-bench-workloads [options]\n%s", formatFlagHelp(kFlags).c_str());
    return 0;
  }
  if (args->has("shapes")) {
    for (const Workload &w : kWorkloads) {
      std::vector<std::pair<std::string, int64_t>> dims(w.dims.begin(), w.dims.end());
      std::sort(dims.begin(), dims.end());
      std::string flags;
      for (const auto &[symbol, value] : dims)
        absl::StrAppend(&flags, " --dim ", symbol, "=", value);
      std::printf("%s%s\n", w.name, flags.c_str());
    }
    return 0;
  }
  if (args->has("list")) {
    for (const Workload &w : kWorkloads)
      std::printf("%s\n", w.name);
    return 0;
  }
  int threads = 0, iters = 20;
  if ((args->has("threads") && !absl::SimpleAtoi(args->get("threads"), &threads)) ||
      (args->has("iters") && !absl::SimpleAtoi(args->get("iters"), &iters)) || iters < 1 ||
      threads < 0) {
    std::fprintf(stderr,
                 "xstitch-bench-workloads: error: --threads and --iters take positive integers\n");
    return 2;
  }
  std::string examples = args->get("examples", "examples");
  std::string only = args->get("only");
  if (!only.empty() && std::none_of(kWorkloads.begin(), kWorkloads.end(),
                                    [&](const Workload &w) { return only == w.name; })) {
    std::fprintf(stderr, "xstitch-bench-workloads: error: no workload '%s' (--list names them)\n",
                 only.c_str());
    return 2;
  }
  std::ofstream json;
  if (args->has("json")) {
    json.open(args->get("json"));
    if (!json)
      return fail("cannot write " + args->get("json"));
  }

  std::string device = args->get("device", "cpu");
  absl::StatusOr<DeviceSpec> parsedDevice = parseDeviceName(device);
  const bool gpu = parsedDevice.ok() && isPresentGpu(*parsedDevice);
  if (device != "cpu" && !gpu) {
    std::fprintf(
        stderr, "xstitch-bench-workloads: error: devices are cpu, cuda[:N] and hip[:N], not '%s'\n",
        device.c_str());
    return 2;
  }
  const std::string shuffles = args->get("amdgpu-shuffles", "dpp");
  if (shuffles != "dpp" && shuffles != "bpermute" && shuffles != "compare") {
    std::fprintf(stderr,
                 "xstitch-bench-workloads: error: --amdgpu-shuffles takes dpp, bpermute or "
                 "compare, not '%s'\n",
                 shuffles.c_str());
    return 2;
  }
  const bool specialized = args->has("specialized");
  const bool compareShuffles = shuffles == "compare";
  if (compareShuffles && (!gpu || parsedDevice->platform != hipPlatform().name)) {
    std::fprintf(stderr, "xstitch-bench-workloads: error: --amdgpu-shuffles=compare times AMD GPU "
                         "code; pass --device=hip[:N]\n");
    return 2;
  }
  if (specialized && compareShuffles) {
    std::fprintf(stderr, "xstitch-bench-workloads: error: --specialized and "
                         "--amdgpu-shuffles=compare are two comparisons; pass one\n");
    return 2;
  }
  // The machine's bandwidth drifts over minutes: each workload is judged
  // against copies timed just before and just after it (the faster of the
  // two, so the fraction is never flattered by a slow moment).
  std::unique_ptr<CopyFloor> hostCopy;
  std::unique_ptr<bench::GpuCopyFloor> gpuCopy;
  if (!gpu) {
    hostCopy = std::make_unique<CopyFloor>(size_t(512) << 20, threads);
  } else {
    // 2 GiB: far beyond any GPU's L2 (or MI300's Infinity Cache).
    absl::StatusOr<std::unique_ptr<bench::GpuCopyFloor>> created =
        bench::GpuCopyFloor::create(*parsedDevice, size_t(2) << 30);
    if (!created.ok())
      return fail(created.status());
    gpuCopy = *std::move(created);
  }
  absl::Status floorStatus = absl::OkStatus();
  auto measureFloor = [&](int copies) {
    if (!gpu)
      return hostCopy->measure(copies);
    absl::StatusOr<double> measured = gpuCopy->measure(copies);
    if (!measured.ok()) {
      floorStatus = measured.status();
      return 1.0;
    }
    return *measured;
  };
  double floor = measureFloor(7);
  if (!floorStatus.ok())
    return fail(std::string(floorStatus.message()));
  if (gpu)
    std::printf("copy bandwidth floor (2 GiB device-to-device copy on %s, read + write): %.1f "
                "GB/s at the start, measured again around each workload\n",
                device.c_str(), floor / 1e9);
  else
    std::printf("copy bandwidth floor (512 MiB parallel copy, read + write): %.1f GB/s at the "
                "start, measured again around each workload\n",
                floor / 1e9);
  std::printf("%s, median of %d runs; floor time = (inputs + outputs) / floor bandwidth\n\n",
              gpu ? "kernel time of each run"
                  : absl::StrCat(threads ? std::to_string(threads) : "all", " threads").c_str(),
              iters);
  // The two compiles a comparison times in turns, and their names.
  const char *firstName = specialized ? "symbolic" : "dpp";
  const char *secondName = specialized ? "specialized" : "bpermute";
  if (specialized || compareShuffles) {
    std::printf("| workload | dims | %s (ms) | %s (ms) | %s speed / %s | kernels %s / %s |\n"
                "|---|---|---:|---:|---:|---:|\n",
                firstName, secondName, firstName, secondName, firstName, secondName);
  } else {
    std::printf("| workload | bytes | floor (GB/s) | floor (ms) | fused (ms) | of floor | unfused "
                "(ms) | fused speedup | kernels fused / unfused | cold compile (ms) | cache hit "
                "(us) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  if (json)
    json << "{\"floor_gbps\": " << floor / 1e9 << "}\n";
  std::vector<double> speedRatios; // a comparison: the second's time / the first's

  std::mt19937_64 rng(1);
  for (const Workload &w : kWorkloads) {
    if (!only.empty() && only != w.name)
      continue;
    std::string path = absl::StrCat(examples, "/", w.name, ".xs");
    std::ifstream file(path);
    if (!file)
      return fail("cannot read " + path + " (pass --examples DIR)");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, path);
    if (!module.ok())
      return fail(std::string(module.status().message()));
    if (absl::Status s = runPipeline(**module, defaultPipeline(), PipelineOptions{}); !s.ok())
      return fail(std::string(s.message()));
    const Function &f = *(*module)->functions()[0];

    std::vector<Tensor> inputs;
    std::vector<TensorView> views;
    double bytes = 0;
    for (const auto &p : f.params()) {
      std::vector<int64_t> shape;
      for (const DimExpr &d : p->type().shape()) {
        absl::StatusOr<int64_t> v = d.evaluate(w.dims);
        if (!v.ok())
          return fail(absl::StrCat(w.name, ": ", v.status().message()));
        shape.push_back(*v);
      }
      ElementType t = p->type().elementType();
      inputs.push_back(toTensor(randomTensor(t, shape, defaultRandomRange(t), rng)));
    }
    for (const Tensor &t : inputs) {
      views.push_back(t.view());
      bytes += static_cast<double>(t.view().byteSize());
    }
    for (const auto &r : f.results()) {
      absl::StatusOr<int64_t> n = r.value->type().numElements().evaluate(w.dims);
      if (n.ok())
        bytes += static_cast<double>(*n) * elementByteSize(r.value->type().elementType());
    }

    CompileOptions options;
    options.device = device;
    options.threads = threads;
    options.amdgpuBpermute = shuffles == "bpermute";
    if (specialized || compareShuffles) {
      absl::StatusOr<Compiled> first = compileTimed(f, text, path, w.dims, options);
      if (specialized)
        options.specialize = w.dims;
      else
        options.amdgpuBpermute = true;
      absl::StatusOr<Compiled> second = compileTimed(f, text, path, w.dims, options);
      if (!first.ok() || !second.ok())
        return fail(
            absl::StrCat(w.name, ": ", (!first.ok() ? first.status() : second.status()).message()));
      absl::StatusOr<bench::TurnMedians> timed = timeInTurns({&*first, &*second}, views, iters);
      if (!timed.ok())
        return fail(absl::StrCat(w.name, ": ", timed.status().message()));
      std::vector<std::pair<std::string, int64_t>> dims(w.dims.begin(), w.dims.end());
      std::sort(dims.begin(), dims.end());
      std::vector<std::string> dimText;
      for (const auto &[symbol, value] : dims)
        dimText.push_back(absl::StrCat(symbol, "=", value));
      // On a GPU the kernels' time, as in the main table.
      const std::vector<double> &times = gpu ? timed->values : timed->seconds;
      double ratio = times[1] / times[0];
      speedRatios.push_back(ratio);
      std::printf("| %s | %s | %.3f | %.3f | %.2f | %d / %d |\n", w.name,
                  absl::StrJoin(dimText, ", ").c_str(), times[0] * 1e3, times[1] * 1e3, ratio,
                  first->kernels, second->kernels);
      std::fflush(stdout);
      if (json)
        json << absl::StrFormat("{\"workload\": \"%s\", \"%s_ms\": %.6f, \"%s_ms\": %.6f}\n",
                                w.name, firstName, times[0] * 1e3, secondName, times[1] * 1e3);
      continue;
    }
    absl::StatusOr<Compiled> fused = compileTimed(f, text, path, w.dims, options);
    options.fusion = false;
    absl::StatusOr<Compiled> unfused = compileTimed(f, text, path, w.dims, options);
    if (!fused.ok() || !unfused.ok())
      return fail(
          absl::StrCat(w.name, ": ", (!fused.ok() ? fused.status() : unfused.status()).message()));
    double before = measureFloor(5);
    absl::StatusOr<bench::TurnMedians> timed = timeInTurns({&*fused, &*unfused}, views, iters);
    double localFloor = std::max(before, measureFloor(5));
    if (!floorStatus.ok())
      return fail(std::string(floorStatus.message()));
    if (!timed.ok())
      return fail(absl::StrCat(w.name, ": ", timed.status().message()));
    // A graph with library ops (bert_layer) is judged on its memory-intensive
    // kernels: their time apart from the matrix products, against the floor
    // of the bytes those kernels must move.
    bool library = false;
    for (const auto &op : f.ops())
      library |= op->info().category == OpCategory::Library;
    double floorBytes = library ? fused->kernelBytes : bytes;
    // On a GPU a run also copies its inputs and results between host and
    // device: the kernels' time is what is judged.
    bool kernelsOnly = library || gpu;
    double fusedTime = kernelsOnly ? timed->values[0] : timed->seconds[0];
    double unfusedTime = kernelsOnly ? timed->values[1] : timed->seconds[1];
    double floorSeconds = floorBytes / localFloor;
    std::printf("| %s%s | %.1f MiB | %.1f | %.3f | %.3f | %.2f | %.3f | %.2fx | %d / %d | %.0f | "
                "%.0f |\n",
                w.name, library ? " (memory-intensive kernels)" : "", floorBytes / (1 << 20),
                localFloor / 1e9, floorSeconds * 1e3, fusedTime * 1e3, floorSeconds / fusedTime,
                unfusedTime * 1e3, unfusedTime / fusedTime, fused->kernels, unfused->kernels,
                fused->compileSeconds * 1e3, fused->cacheHitSeconds * 1e6);
    std::fflush(stdout);
    if (json)
      json << absl::StrFormat(
          "{\"workload\": \"%s\", \"bytes\": %.0f, \"floor_gbps\": %.3f, \"floor_ms\": %.6f, "
          "\"fused_ms\": %.6f, "
          "\"unfused_ms\": %.6f, \"whole_fused_ms\": %.6f, \"kernels_fused\": %d, "
          "\"kernels_unfused\": %d, \"compile_ms\": %.3f, \"cache_hit_us\": %.3f}\n",
          w.name, floorBytes, localFloor / 1e9, floorSeconds * 1e3, fusedTime * 1e3,
          unfusedTime * 1e3, timed->seconds[0] * 1e3, fused->kernels, unfused->kernels,
          fused->compileSeconds * 1e3, fused->cacheHitSeconds * 1e6);
  }
  if (!speedRatios.empty()) {
    double logSum = 0;
    for (double r : speedRatios)
      logSum += std::log(r);
    std::printf("\n%s speed / %s: geometric mean %.3f, lowest %.3f\n", firstName, secondName,
                std::exp(logSum / static_cast<double>(speedRatios.size())),
                *std::min_element(speedRatios.begin(), speedRatios.end()));
  }
  return 0;
}

} // namespace
} // namespace xs

int main(int argc, char **argv) { return xs::run(argc, argv); }
