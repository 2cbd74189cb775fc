#include "driver/Compiler.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "backends/nvptx/NvptxBackend.h"
#include "backends/nvptx/NvptxSimulation.h"
#include "backends/x86/X86Backend.h"
#include "driver/CompileCache.h"
#include "driver/NvidiaTargets.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/simt/SimtDevice.h"

#ifndef XSTITCH_VERSION
#error "XSTITCH_VERSION must be defined by the build (driver/CMakeLists.txt)"
#endif

namespace xs {
namespace {

absl::Status checkDevice(const CompileOptions &options) {
  if (options.device == "cpu")
    return absl::OkStatus();
  if (isCudaDeviceName(options.device))
    return cudaOrdinal(options.device).status();
  if (isNvptxSimulationName(options.device))
    return checkNvptxSimulationName(options.device);
  return absl::InvalidArgumentError(absl::StrCat("device '", options.device,
                                                 "' is not supported; devices are cpu, "
                                                 "cuda[:N] and nvptx-sim[:sm_XX][:phases]"));
}

X86Options x86Options(const CompileOptions &options) {
  X86Options x86;
  x86.cpu = options.cpu;
  x86.features = options.features;
  x86.threads = options.threads;
  x86.minElementsPerBlock = options.blockElements;
  x86.flushDenormals = options.flushDenormals;
  x86.streamingStoreBytes = options.streamingStoreBytes;
  return x86;
}

// Everything that determines the generated code and where it is loaded.
constexpr int64_t kLiteralsInCacheKeys = 64;

std::string cacheKeyText(const Function &function, const CompileOptions &options) {
  return absl::StrCat(
      "xstitch ", XSTITCH_VERSION, "\ndevice=", options.device, "\nfusion=", options.fusion ? 1 : 0,
      "\nthreads=", options.threads, "\nflush_denormals=", options.flushDenormals ? 1 : 0,
      "\nblock_elements=", options.blockElements,
      "\nstreaming_store_bytes=", options.streamingStoreBytes, "\ncpu=", options.cpu,
      "\nfeatures=", options.features, "\n",
      // Weights enter the key as their digests: printing them would cost
      // seconds for a whole model.
      printFunction(function, PrintOptions{.elideLiteralsAbove = kLiteralsInCacheKeys}));
}

// Process-wide: every executable compiled in this process lives as long as
// the process, so the cache and the devices are never destroyed (no
// destruction-order hazards with TBB's or LLVM's globals at exit).
CompileCache &compileCache() {
  static CompileCache *cache = new CompileCache();
  return *cache;
}

// CompilerCounters, process-wide.
std::atomic<int64_t> &compilations() {
  static std::atomic<int64_t> count{0};
  return count;
}
std::atomic<int64_t> &cacheHits() {
  static std::atomic<int64_t> count{0};
  return count;
}

// One CPU device per worker-thread count and float mode, shared by every
// compilation, and one NVPTX simulation device (the CPU device with the lane
// scheduler) per the same and kind of launch of several phases.
Device &cpuDevice(int threads, bool flushDenormals, bool simulation = false,
                  bool cooperative = true) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<std::tuple<int, bool, bool, bool>, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<Device> &device = (*devices)[{threads, flushDenormals, simulation, cooperative}];
  if (!device) {
    CpuDeviceOptions cpuOptions;
    cpuOptions.threads = threads;
    cpuOptions.flushDenormals = flushDenormals;
    cpuOptions.cooperativeLaunches = cooperative;
    device = simulation ? createNvptxSimulationDevice(cpuOptions) : createCpuDevice(cpuOptions);
  }
  return *device;
}

// One CUDA device per GPU, shared by every compilation. A GPU that cannot be
// opened is tried again at the next compile (the error may be transient).
absl::StatusOr<Device *> cudaDevice(int ordinal) {
  static std::mutex *mutex = new std::mutex();
  static auto *devices = new std::map<int, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<Device> &device = (*devices)[ordinal];
  if (!device) {
    cuda::CudaDeviceOptions cudaOptions;
    cudaOptions.ordinal = ordinal;
    XS_ASSIGN_OR_RETURN(device, cuda::createCudaDevice(cudaOptions));
  }
  return device.get();
}

/// The NVPTX backend's options for `name`: a preset's limits, or a CUDA
/// device's queried ones.
absl::StatusOr<NvptxOptions> nvptxOptionsFor(std::string_view name) {
  XS_ASSIGN_OR_RETURN(NvidiaDeviceLimits limits, resolveNvidiaTarget(name));
  NvptxOptions nvptx;
  nvptx.limits = std::move(limits);
  return nvptx;
}

PlanOptions planOptionsOf(const CompileOptions &options) {
  PlanOptions plan;
  plan.fusion = options.fusion;
  return plan;
}

/// Plans `function` for the NVIDIA GPU `nvptx` describes.
absl::StatusOr<ProgramPlan> planForNvptx(const Function &function, const CompileOptions &options,
                                         const NvptxOptions &nvptx) {
  return planProgram(function, nvptxTargetDescription(nvptx), planOptionsOf(options));
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

absl::StatusOr<std::shared_ptr<Executable>>
compileUncached(const Function &function, const CompileOptions &options, CompileInfo &stages) {
  auto start = std::chrono::steady_clock::now();
  if (isCudaDeviceName(options.device)) {
    // The GPU's limits are queried once, for planning and code generation.
    XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(options.device));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
    stages.planSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    XS_ASSIGN_OR_RETURN(std::string ptx, emitPtx(plan, nvptx));
    CompiledProgram program{std::move(plan.host), "ptx", {std::move(ptx)}};
    stages.llvmSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    XS_ASSIGN_OR_RETURN(int ordinal, cudaOrdinal(options.device));
    XS_ASSIGN_OR_RETURN(Device * device, cudaDevice(ordinal));
    absl::StatusOr<std::shared_ptr<Executable>> loaded = device->load(std::move(program));
    stages.loadSeconds = secondsSince(start);
    return loaded;
  }
  if (isNvptxSimulationName(options.device)) {
    XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(simulatedNvidiaTarget(options.device)));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
    stages.planSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    XS_ASSIGN_OR_RETURN(CompiledProgram program,
                        compileNvptxSimulation(plan, nvptx, x86Options(options)));
    stages.llvmSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    absl::StatusOr<std::shared_ptr<Executable>> loaded =
        cpuDevice(options.threads, options.flushDenormals, /*simulation=*/true,
                  simulatesCooperativeLaunches(options.device))
            .load(std::move(program));
    stages.loadSeconds = secondsSince(start);
    return loaded;
  }
  absl::StatusOr<ProgramPlan> plan = planFunction(function, options);
  if (!plan.ok())
    return plan.status();
  stages.planSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();
  absl::StatusOr<CompiledProgram> program = compileForX86(*plan, x86Options(options));
  if (!program.ok())
    return program.status();
  stages.llvmSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();
  absl::StatusOr<std::shared_ptr<Executable>> loaded =
      cpuDevice(options.threads, options.flushDenormals).load(std::move(*program));
  stages.loadSeconds = secondsSince(start);
  return loaded;
}

} // namespace

absl::StatusOr<std::shared_ptr<Executable>>
compileFunction(const Function &function, const CompileOptions &options, CompileInfo *info) {
  return compileFunction(function, options, compileCache(), info);
}

absl::StatusOr<std::shared_ptr<Executable>> compileFunction(const Function &function,
                                                            const CompileOptions &options,
                                                            CompileCache &cache,
                                                            CompileInfo *info) {
  if (absl::Status s = checkDevice(options); !s.ok())
    return s;
  auto start = std::chrono::steady_clock::now();
  bool hit = false;
  CompileInfo stages;
  auto compile = [&] {
    compilations().fetch_add(1, std::memory_order_relaxed);
    return compileUncached(function, options, stages);
  };
  absl::StatusOr<std::shared_ptr<Executable>> executable =
      options.useCache ? cache.getOrCompile(cacheKeyText(function, options), compile, &hit)
                       : compile();
  if (!executable.ok())
    return executable.status();
  if (hit)
    cacheHits().fetch_add(1, std::memory_order_relaxed);
  if (info) {
    info->compileSeconds = secondsSince(start);
    info->cacheHit = hit;
    info->planSeconds = stages.planSeconds;
    info->llvmSeconds = stages.llvmSeconds;
    info->loadSeconds = stages.loadSeconds;
    info->kernels.clear();
    for (const HostStep &step : (*executable)->plan().steps)
      if (step.kind == HostStep::Kind::Launch)
        info->kernels.push_back(step.kernel);
  }
  return executable;
}

CompilerCounters compilerCounters() {
  CompilerCounters counters;
  counters.compilations = compilations().load(std::memory_order_relaxed);
  counters.cacheHits = cacheHits().load(std::memory_order_relaxed);
  return counters;
}

absl::StatusOr<ProgramPlan> planFunction(const Function &function, const CompileOptions &options) {
  if (absl::Status s = checkDevice(options); !s.ok())
    return s;
  if (isCudaDeviceName(options.device))
    return planNvidiaFunction(function, options, options.device);
  if (isNvptxSimulationName(options.device))
    return planNvidiaFunction(function, options, simulatedNvidiaTarget(options.device));
  return planProgram(function, x86TargetDescription(x86Options(options)), planOptionsOf(options));
}

absl::StatusOr<ProgramPlan> planNvidiaFunction(const Function &function,
                                               const CompileOptions &options,
                                               std::string_view target) {
  XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(target));
  return planForNvptx(function, options, nvptx);
}

absl::StatusOr<std::string> emitNvidiaKernels(const Function &function,
                                              const CompileOptions &options,
                                              std::string_view target, bool llvmIR) {
  XS_ASSIGN_OR_RETURN(NvptxOptions nvptx, nvptxOptionsFor(target));
  XS_ASSIGN_OR_RETURN(ProgramPlan plan, planForNvptx(function, options, nvptx));
  return llvmIR ? emitNvptxLLVMIR(plan, nvptx) : emitPtx(plan, nvptx);
}

absl::StatusOr<std::string> emitLLVMIR(const Function &function, const CompileOptions &options,
                                       bool optimized) {
  if (options.device != "cpu")
    return absl::InvalidArgumentError(
        absl::StrCat("x86 LLVM IR is CPU code; for ", options.device, " emit ptx or nvptx-llvm"));
  absl::StatusOr<ProgramPlan> plan = planFunction(function, options);
  if (!plan.ok())
    return plan.status();
  return emitX86LLVMIR(*plan, x86Options(options), optimized);
}

} // namespace xs
