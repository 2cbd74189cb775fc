// xstitch-graph-fuzz: the random-graph differential test in long mode. Keeps
// generating random graphs of memory-intensive ops, compiling them for a
// device (the CPU by default; --device=cuda on a GPU, nvptx-sim for the
// NVIDIA code run on the CPU) and comparing every result with the reference interpreter at random
// values of the symbolic dims, until the time is up. Prints every failing
// graph with its seed and dims; exits 1 if any graph failed.
//
//   xstitch-graph-fuzz --seconds 600 --seed 1 [--max-ops 30] [--threads 4] [--device cuda]
//
// Graph i uses seed S + i, so `--seed K --seconds 0` (one graph) replays a
// failure reported with seed K.

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/devices/DevicePlatform.h"
#include "runtime/devices/Devices.h"
#include "tools/common/CommandLine.h"
#include "tools/common/DifferentialCheck.h"
#include "tools/common/ExitCodes.h"
#include "tools/common/RandomGraph.h"

namespace xs {
namespace {

const std::vector<FlagSpec> kFlags = {
    {"seconds", true, false, "N", "run for N seconds (default 10; 0: one graph per thread)"},
    {"device", true, false, "NAME",
     "where the compiled graphs run: cpu (default), cuda[:N], nvptx-sim[:sm_XX][:phases]"},
    {"seed", true, false, "S", "seed of the first graph (default 1); graph i uses S + i"},
    {"max-ops", true, false, "N", "memory-intensive ops per graph, at most (default 30)"},
    {"min-ops", true, false, "N", "memory-intensive ops per graph, at least (default 2)"},
    {"threads", true, false, "T", "graphs checked at once (default 1)"},
    {"dims-per-graph", true, false, "N", "random dim values tried per graph (default 2)"},
    {"print-graphs", false, false, "",
     "print each graph, its dims and options before checking it (to reproduce a crash)"},
    {"help", false, false, "", "show this help"},
};

/// Block size of the odd rounds of each graph.
constexpr int64_t kSmallBlockElements = 64;

struct FuzzConfig {
  double seconds = 10;
  uint64_t seed = 1;
  RandomGraphOptions graph;
  int threads = 1;
  int dimsPerGraph = 2;
  bool printGraphs = false;
  std::string device = "cpu";
  bool amdDevice = false; // an AMD GPU or its simulation: lane exchanges vary
};

struct FuzzState {
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> checked{0};
  std::atomic<uint64_t> failed{0};
  std::mutex printMutex;
};

std::string dimsText(const DimBindings &dims) {
  std::vector<std::string> parts;
  for (const auto &[s, v] : dims)
    parts.push_back(absl::StrCat(s, "=", v));
  std::sort(parts.begin(), parts.end());
  return parts.empty() ? "(none)" : absl::StrJoin(parts, " ");
}

// Checks one graph; returns false and prints it when it fails.
/// The xstitch-run flags that reproduce `options` (empty for the defaults).
std::string optionsText(const CompileOptions &options) {
  std::string text;
  if (options.device != "cpu")
    absl::StrAppend(&text, ", --device=", options.device);
  if (options.blockElements)
    absl::StrAppend(&text, ", --block-elements=", options.blockElements);
  if (options.streamingStoreBytes > 0)
    absl::StrAppend(&text, ", --streaming-stores=", options.streamingStoreBytes);
  if (options.amdgpuBpermute)
    absl::StrAppend(&text, ", --amdgpu-shuffles=bpermute");
  return text;
}

bool checkGraph(uint64_t seed, const FuzzConfig &config, FuzzState &state) {
  RandomGraph graph = generateRandomGraph(seed, config.graph);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (int round = 0; round < config.dimsPerGraph; ++round) {
    DimBindings dims = randomDimValues(graph.symbols, rng);
    std::vector<HostTensor> inputs = randomGraphInputs(graph, dims, rng);
    // Every other round with tiny blocks: the split and packed mappings of
    // large shapes at the generator's small ones; and every other graph
    // with streaming stores for results of any size (the generator's
    // results are small); on AMD GPUs every other pair of graphs exchanges
    // lanes by ds_bpermute instead of DPP.
    CompileOptions options;
    options.device = config.device;
    options.blockElements = round % 2 == 1 ? kSmallBlockElements : 0;
    options.streamingStoreBytes = seed % 2 == 1 ? 1 : 0;
    options.amdgpuBpermute = config.amdDevice && seed / 2 % 2 == 1;
    if (config.printGraphs) {
      std::lock_guard<std::mutex> lock(state.printMutex);
      std::cout << "graph: seed " << seed << ", dims " << dimsText(dims) << optionsText(options)
                << "\n"
                << graph.text << std::endl;
    }
    absl::StatusOr<DifferentialResult> result =
        runDifferential(graph.text, inputs, options, graph.tolerances);
    if (result.ok() && result->passed)
      continue;
    std::lock_guard<std::mutex> lock(state.printMutex);
    std::cout << "FAIL: seed " << seed << ", dims " << dimsText(dims) << optionsText(options)
              << "\n"
              << (result.ok() ? result->message : std::string(result.status().message()) + "\n")
              << graph.text << "\n";
    std::cout.flush();
    return false;
  }
  return true;
}

void worker(const FuzzConfig &config, FuzzState &state,
            std::chrono::steady_clock::time_point deadline) {
  do {
    uint64_t i = state.next.fetch_add(1);
    if (!checkGraph(config.seed + i, config, state))
      state.failed.fetch_add(1);
    state.checked.fetch_add(1);
  } while (std::chrono::steady_clock::now() < deadline);
}

absl::StatusOr<FuzzConfig> parseConfig(const ParsedArgs &args) {
  FuzzConfig c;
  auto intFlag = [&](const char *name, int &out, int lo) -> absl::Status {
    if (args.has(name) && (!absl::SimpleAtoi(args.get(name), &out) || out < lo))
      return absl::InvalidArgumentError(absl::StrCat("--", name, " needs an integer >= ", lo));
    return absl::OkStatus();
  };
  if (args.has("seconds") && (!absl::SimpleAtod(args.get("seconds"), &c.seconds) || c.seconds < 0))
    return absl::InvalidArgumentError("--seconds needs a non-negative number");
  if (args.has("seed") && !absl::SimpleAtoi(args.get("seed"), &c.seed))
    return absl::InvalidArgumentError("--seed needs a non-negative integer");
  if (absl::Status s = intFlag("max-ops", c.graph.maxOps, 1); !s.ok())
    return s;
  if (absl::Status s = intFlag("min-ops", c.graph.minOps, 1); !s.ok())
    return s;
  if (c.graph.minOps > c.graph.maxOps)
    return absl::InvalidArgumentError("--min-ops must not exceed --max-ops");
  if (absl::Status s = intFlag("threads", c.threads, 1); !s.ok())
    return s;
  if (absl::Status s = intFlag("dims-per-graph", c.dimsPerGraph, 1); !s.ok())
    return s;
  c.printGraphs = args.has("print-graphs");
  if (args.has("device"))
    c.device = args.get("device");
  absl::StatusOr<DeviceSpec> device = parseDeviceName(c.device);
  c.amdDevice = device.ok() && (device->platform == hipPlatform().name ||
                                device->platform == amdgpuSimulationPlatform().name);
  return c;
}

int run(int argc, char **argv) {
  absl::StatusOr<ParsedArgs> args = parseArgs(argc, argv, kFlags);
  if (!args.ok()) {
    std::cerr << "xstitch-graph-fuzz: error: " << args.status().message() << "\n";
    return kExitUserError;
  }
  if (args->has("help")) {
    std::cout << "usage: xstitch-graph-fuzz [options]\n"
                 "Compiles random graphs for a device and compares them with the reference\n"
                 "interpreter until the time is up. Exit codes: 0 all passed, 1 a graph failed,\n"
                 "2 a user error.\n\n"
              << formatFlagHelp(kFlags);
    return kExitOk;
  }
  if (!args->positional().empty()) {
    std::cerr << "xstitch-graph-fuzz: error: unexpected argument '" << args->positional()[0]
              << "'\n";
    return kExitUserError;
  }
  absl::StatusOr<FuzzConfig> config = parseConfig(*args);
  if (!config.ok()) {
    std::cerr << "xstitch-graph-fuzz: error: " << config.status().message() << "\n";
    return kExitUserError;
  }
  FuzzState state;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(config->seconds));
  std::vector<std::thread> threads;
  for (int t = 0; t < config->threads; ++t)
    threads.emplace_back(worker, std::cref(*config), std::ref(state), deadline);
  for (std::thread &t : threads)
    t.join();
  std::cout << "xstitch-graph-fuzz: " << state.checked << " graphs from seed " << config->seed
            << ", " << state.failed << " failed\n";
  return state.failed == 0 ? kExitOk : kExitMismatch;
}

} // namespace
} // namespace xs

int main(int argc, char **argv) { return xs::run(argc, argv); }
