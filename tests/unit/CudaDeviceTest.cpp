// The CUDA device's host side on a recording driver: a CudaDriver whose
// entry points keep "device" memory in host memory and record every module
// load and launch. What runs on a GPU is checked on one (the GPU tests); here
// the host side is checked: the PTX and the symbols it loads, the launch
// configurations (grid, threads, dynamic shared memory, the dims and buffer
// tables the kernels read), copies in and out, library steps on the host,
// aliases, reuse of cached device memory, and the errors.

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "backends/common/KernelABI.h"
#include "backends/nvptx/NvptxBackend.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "runtime/Executable.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/cuda/CudaDevice.h"
#include "tests/unit/RecordingCublasLt.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs::cuda {
namespace {

struct RecordedLaunch {
  std::string kernel;
  unsigned grid = 0, threads = 0, sharedBytes = 0;
  std::vector<int64_t> dims;     // the dims array the kernel was given
  int64_t *dimsArray = nullptr;  // where it is (the run's status word follows the symbols)
  std::vector<uint64_t> buffers; // its buffer table
  int64_t blockBegin = 0;
  bool cooperative = false;        // cuLaunchCooperativeKernel
  const uint64_t *table = nullptr; // the whole buffer table, for a longer look
};

/// The state behind the recording driver's entry points.
struct FakeGpu {
  int devices = 1;
  std::set<uint64_t> live; // allocations
  int allocations = 0;
  std::vector<std::string> modules;   // PTX loaded
  std::vector<std::string> functions; // handles are index + 1
  std::vector<RecordedLaunch> launches;
  /// Called at each launch: what the "kernel" does to its buffers.
  void (*kernelEffect)(const RecordedLaunch &) = nullptr;
  bool rejectPtx = false;
  CUcontext current = nullptr; // the calling thread's current context
  CUresult syncResult = 0;
  // Events: each record is one tick of a fake GPU clock of 0.25 ms.
  std::map<uint64_t, int> eventTicks;
  int ticks = 0, eventsLive = 0; // what stream synchronization answers (700: a faulted kernel)
  int hostToDevice = 0, deviceToHost = 0, deviceToDevice = 0; // copies queued
  std::vector<CUstream> launchStreams, synchronized;
  /// Blocks of any kernel that fit an SM at once (the occupancy query): 0
  /// keeps variants of several phases to a launch per phase.
  int occupancy = 0;
  /// Whether the streams have passed every event recorded on them
  /// (cuEventQuery): false keeps runs left queued holding their memory.
  bool eventsDone = true;
  int driverVersion = 13000; // cuDriverGetVersion: CUDA 13.0
  bool outOfMemory = false;  // cuMemAlloc and cuMemHostAlloc fail
  /// Every allocation from the failFrom-th request on fails (0: none).
  int failFrom = 0, allocationRequests = 0;
  int resets = 0; // cuDevicePrimaryCtxReset calls
  /// Shared memory a block may opt in to (attribute 97): an H200's by
  /// default; less plays a smaller GPU than the plan was made for.
  int sharedOptIn = 227 * 1024;
};
FakeGpu *gpu = nullptr;

constexpr int kStaticShared = 256;

CUresult fakeInit(unsigned) { return 0; }
CUresult fakeErrorName(CUresult, const char **name) {
  *name = "CUDA_ERROR_FAKE";
  return 0;
}
CUresult fakeErrorString(CUresult, const char **text) {
  *text = "the recording driver refused";
  return 0;
}
CUresult fakeDeviceCount(int *count) {
  *count = gpu->devices;
  return 0;
}
CUresult fakeDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return 0;
}
CUresult fakeDeviceName(char *name, int length, CUdevice) {
  std::strncpy(name, "Recording H200", static_cast<size_t>(length));
  return 0;
}
CUresult fakeAttribute(int *value, int attribute, CUdevice) {
  static const std::map<int, int> attributes = {
      {1, 1024}, {10, 32}, {12, 65536},      {16, 132},   {38, 50 << 20}, {39, 2048},
      {75, 9},   {76, 0},  {81, 228 * 1024}, {82, 65536}, {95, 1},        {106, 32}};
  auto it = attributes.find(attribute);
  *value = attribute == 97 ? gpu->sharedOptIn : it == attributes.end() ? 0 : it->second;
  return 0;
}
CUresult fakeTotalMem(size_t *bytes, CUdevice) {
  *bytes = size_t{141} << 30;
  return 0;
}
CUresult fakeRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(0x1);
  return 0;
}
CUresult fakeRelease(CUdevice) { return 0; }
CUresult fakeReset(CUdevice) {
  ++gpu->resets;
  return 0;
}
CUresult fakeSetCurrent(CUcontext context) {
  gpu->current = context;
  return 0;
}
CUresult fakeGetCurrent(CUcontext *context) {
  *context = gpu->current;
  return 0;
}
CUresult fakeModuleLoad(CUmodule *module, const void *image, unsigned numOptions, int *options,
                        void **values) {
  if (gpu->rejectPtx) {
    for (unsigned i = 0; i + 1 < numOptions; ++i)
      if (options[i] == 5 && options[i + 1] == 6)
        std::strncpy(static_cast<char *>(values[i]), "ptxas fatal: no kernel today",
                     reinterpret_cast<uintptr_t>(values[i + 1]));
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  gpu->modules.push_back(static_cast<const char *>(image));
  *module = reinterpret_cast<CUmodule>(gpu->modules.size());
  return 0;
}
CUresult fakeModuleUnload(CUmodule) { return 0; }
CUresult fakeGetFunction(CUfunction *function, CUmodule module, const char *name) {
  const std::string &ptx = gpu->modules[reinterpret_cast<uintptr_t>(module) - 1];
  if (ptx.find(std::string(".entry ") + name + "(") == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  gpu->functions.push_back(name);
  *function = reinterpret_cast<CUfunction>(gpu->functions.size());
  return 0;
}
CUresult fakeFuncGetAttribute(int *value, int attribute, CUfunction) {
  *value = attribute == 1 ? kStaticShared : 0;
  return 0;
}
CUresult fakeFuncSetAttribute(CUfunction, int attribute, int value) {
  // Only the dynamic shared-memory ceiling, within the opt-in maximum.
  return attribute == 8 && value + kStaticShared <= gpu->sharedOptIn ? 0 : 1;
}
/// Whether the next device or pinned allocation fails (FakeGpu::failFrom).
bool allocationFails() {
  int n = ++gpu->allocationRequests;
  return gpu->outOfMemory || (gpu->failFrom > 0 && n >= gpu->failFrom);
}
CUresult fakeAlloc(CUdeviceptr *pointer, size_t bytes) {
  if (allocationFails())
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  void *block = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  *pointer = reinterpret_cast<uintptr_t>(block);
  gpu->live.insert(*pointer);
  ++gpu->allocations;
  return 0;
}
CUresult fakeFree(CUdeviceptr pointer) {
  gpu->live.erase(pointer);
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
CUresult fakeCopyToDevice(CUdeviceptr destination, const void *source, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(destination), source, bytes);
  return 0;
}
CUresult fakeCopyToHost(void *destination, CUdeviceptr source, size_t bytes) {
  std::memcpy(destination, reinterpret_cast<void *>(source), bytes);
  return 0;
}
CUresult fakeCopyToDeviceAsync(CUdeviceptr destination, const void *source, size_t bytes,
                               CUstream) {
  ++gpu->hostToDevice;
  return fakeCopyToDevice(destination, source, bytes);
}
CUresult fakeCopyToHostAsync(void *destination, CUdeviceptr source, size_t bytes, CUstream) {
  ++gpu->deviceToHost;
  return fakeCopyToHost(destination, source, bytes);
}
CUresult fakeCopyOnDeviceAsync(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                               CUstream) {
  ++gpu->deviceToDevice;
  std::memcpy(reinterpret_cast<void *>(destination), reinterpret_cast<const void *>(source), bytes);
  return 0;
}
CUresult fakeStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(0x2);
  return 0;
}
CUresult fakeStreamDestroy(CUstream) { return 0; }
CUresult fakeEventCreate(CUevent *event, unsigned) {
  static uint64_t next = 0x5000;
  *event = reinterpret_cast<CUevent>(++next);
  ++gpu->eventsLive;
  return 0;
}
CUresult fakeEventDestroy(CUevent) {
  --gpu->eventsLive;
  return 0;
}
CUresult fakeEventRecord(CUevent event, CUstream) {
  gpu->eventTicks[reinterpret_cast<uint64_t>(event)] = gpu->ticks++;
  return 0;
}
CUresult fakeEventElapsed(float *milliseconds, CUevent start, CUevent end) {
  *milliseconds = 0.25f * static_cast<float>(gpu->eventTicks.at(reinterpret_cast<uint64_t>(end)) -
                                             gpu->eventTicks.at(reinterpret_cast<uint64_t>(start)));
  return 0;
}
CUresult fakeDriverVersion(int *version) {
  *version = gpu->driverVersion;
  return 0;
}
CUresult fakeEventQuery(CUevent) { return gpu->eventsDone ? 0 : 600; } // CUDA_ERROR_NOT_READY
CUresult fakeEventSynchronize(CUevent) { return 0; }
CUresult fakeHostAlloc(void **pointer, size_t bytes, unsigned) {
  if (allocationFails())
    return 2;
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
CUresult fakeFreeHost(void *pointer) {
  std::free(pointer);
  return 0;
}
CUresult fakeStreamSynchronize(CUstream stream) {
  gpu->synchronized.push_back(stream);
  return gpu->syncResult;
}
CUresult fakeOccupancy(int *blocks, CUfunction, int, size_t) {
  *blocks = gpu->occupancy;
  return 0;
}
CUresult fakeLaunch(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                    CUstream stream, void **params, void **) {
  EXPECT_EQ(gridY * gridZ * blockY * blockZ, 1u);
  gpu->launchStreams.push_back(stream);
  RecordedLaunch launch;
  launch.kernel = gpu->functions[reinterpret_cast<uintptr_t>(function) - 1];
  launch.grid = gridX;
  launch.threads = blockX;
  launch.sharedBytes = sharedBytes;
  auto buffers = reinterpret_cast<const uint64_t *>(*static_cast<CUdeviceptr *>(params[0]));
  auto dims = reinterpret_cast<int64_t *>(*static_cast<CUdeviceptr *>(params[1]));
  launch.blockBegin = *static_cast<int64_t *>(params[2]);
  // The tables are read as far as the test's plans need.
  launch.buffers.assign(buffers, buffers + 2);
  launch.table = buffers;
  launch.dims.assign(dims, dims + 2);
  launch.dimsArray = dims;
  if (gpu->kernelEffect)
    gpu->kernelEffect(launch);
  gpu->launches.push_back(std::move(launch));
  return 0;
}
CUresult fakeCooperativeLaunch(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                               unsigned blockX, unsigned blockY, unsigned blockZ,
                               unsigned sharedBytes, CUstream stream, void **params) {
  CUresult result = fakeLaunch(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                               stream, params, nullptr);
  gpu->launches.back().cooperative = true;
  return result;
}

CudaDriver recordingDriver() {
  CudaDriver d;
  d.cuInit = fakeInit;
  d.cuGetErrorName = fakeErrorName;
  d.cuGetErrorString = fakeErrorString;
  d.cuDeviceGetCount = fakeDeviceCount;
  d.cuDeviceGet = fakeDeviceGet;
  d.cuDeviceGetName = fakeDeviceName;
  d.cuDeviceGetAttribute = fakeAttribute;
  d.cuDeviceTotalMem = fakeTotalMem;
  d.cuDevicePrimaryCtxRetain = fakeRetain;
  d.cuDevicePrimaryCtxRelease = fakeRelease;
  d.cuDevicePrimaryCtxReset = fakeReset;
  d.cuCtxSetCurrent = fakeSetCurrent;
  d.cuCtxGetCurrent = fakeGetCurrent;
  d.cuModuleLoadDataEx = fakeModuleLoad;
  d.cuModuleUnload = fakeModuleUnload;
  d.cuModuleGetFunction = fakeGetFunction;
  d.cuFuncGetAttribute = fakeFuncGetAttribute;
  d.cuFuncSetAttribute = fakeFuncSetAttribute;
  d.cuMemAlloc = fakeAlloc;
  d.cuMemFree = fakeFree;
  d.cuMemcpyHtoD = fakeCopyToDevice;
  d.cuMemcpyDtoH = fakeCopyToHost;
  d.cuMemcpyHtoDAsync = fakeCopyToDeviceAsync;
  d.cuMemcpyDtoHAsync = fakeCopyToHostAsync;
  d.cuMemcpyDtoDAsync = fakeCopyOnDeviceAsync;
  d.cuStreamCreate = fakeStreamCreate;
  d.cuStreamDestroy = fakeStreamDestroy;
  d.cuStreamSynchronize = fakeStreamSynchronize;
  d.cuEventCreate = fakeEventCreate;
  d.cuEventDestroy = fakeEventDestroy;
  d.cuEventRecord = fakeEventRecord;
  d.cuEventElapsedTime = fakeEventElapsed;
  d.cuEventQuery = fakeEventQuery;
  d.cuDriverGetVersion = fakeDriverVersion;
  d.cuEventSynchronize = fakeEventSynchronize;
  d.cuMemHostAlloc = fakeHostAlloc;
  d.cuMemFreeHost = fakeFreeHost;
  d.cuLaunchKernel = fakeLaunch;
  d.cuLaunchCooperativeKernel = fakeCooperativeLaunch;
  d.cuOccupancyMaxActiveBlocksPerMultiprocessor = fakeOccupancy;
  return d;
}

class CudaDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    gpu = &state_;
    driver_ = recordingDriver();
  }
  void TearDown() override {
    device_.reset();
    gpu = nullptr;
  }

  /// `text` through the default pipeline, planned and compiled to PTX for
  /// the recording GPU (an H200's limits), loaded on it.
  /// Options with the recording cuBLASLt.
  static CudaDeviceOptions recording() {
    CudaDeviceOptions options;
    options.findCublasLt = testing::findRecordingCublasLt;
    return options;
  }
  absl::StatusOr<std::shared_ptr<Executable>> load(const std::string &text,
                                                   std::unique_ptr<Module> &module,
                                                   const CudaDeviceOptions &options = recording()) {
    XS_ASSIGN_OR_RETURN(module, parseModule(text, "test.xs"));
    XS_RETURN_IF_ERROR(runPipeline(*module, defaultPipeline(), {}));
    XS_ASSIGN_OR_RETURN(CudaDeviceInfo info, driver_.deviceInfo(0));
    NvptxOptions nvptx;
    XS_ASSIGN_OR_RETURN(nvptx.limits, nvidiaPreset(info.arch()));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planProgram(*module->functions().front(),
                                                      nvptxTargetDescription(nvptx), {}));
    XS_ASSIGN_OR_RETURN(std::string ptx, emitPtx(plan, nvptx));
    XS_ASSIGN_OR_RETURN(device_, createCudaDevice(driver_, options));
    return device_->load(CompiledProgram{plan.host, "ptx", {ptx}});
  }

  /// `text` loaded (into `executable`) and run on one f32 input of `shape`
  /// filled with ones.
  absl::StatusOr<std::vector<Tensor>> runOnOnes(const std::string &text,
                                                const std::vector<int64_t> &shape,
                                                std::shared_ptr<Executable> &executable) {
    std::unique_ptr<Module> module;
    XS_ASSIGN_OR_RETURN(executable, load(text, module));
    int64_t elements = 1;
    for (int64_t d : shape)
      elements *= d;
    std::vector<float> x(static_cast<size_t>(elements), 1.0f);
    return executable->run({TensorView{ElementType::F32, shape, x.data()}});
  }

  FakeGpu state_;
  CudaDriver driver_;
  std::unique_ptr<Device> device_;
};

std::vector<float> floats(const Tensor &t) {
  const float *data = static_cast<const float *>(t.data());
  return std::vector<float>(data, data + t.view().numElements());
}

/// One kernel over x and y, the constant folded into it.
constexpr const char *kScale = R"(
func @scale(%x: f32[R, C]) -> (y: f32[R, C]) {
  %two = constant {value = 2.0} : f32[R, C]
  %y = mul %x, %two
  return %y
}
)";

/// A "kernel" that copies its R x C input to its output.
void copyFirstBufferToSecond(const RecordedLaunch &launch) {
  std::memcpy(reinterpret_cast<void *>(launch.buffers[1]),
              reinterpret_cast<const void *>(launch.buffers[0]),
              static_cast<size_t>(launch.dims[0] * launch.dims[1]) * sizeof(float));
}

TEST_F(CudaDeviceTest, LaunchesWithThePlansConfigurationAndCopiesResultsBack) {
  // The "kernel" copies its input to its output: what comes back must be
  // what went in, through the buffer table the launch was given.
  state_.kernelEffect = copyFirstBufferToSecond;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->deviceName(), "cuda:0");
  ASSERT_EQ(state_.modules.size(), 1u);
  const HostPlan &plan = (*executable)->plan();
  ASSERT_EQ(plan.steps.size(), 1u);
  ASSERT_EQ(plan.symbols, (std::vector<std::string>{"R", "C"}));

  std::vector<float> x(3 * 5);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i) - 4.5f;
  TensorView input{ElementType::F32, {3, 5}, x.data()};
  absl::StatusOr<std::vector<Tensor>> outputs = (*executable)->run({input});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(state_.launches.size(), 1u);
  const RecordedLaunch &launch = state_.launches[0];
  DimBindings dims{{"R", 3}, {"C", 5}};
  absl::StatusOr<size_t> variant = chooseVariant(plan.steps[0], dims);
  ASSERT_TRUE(variant.ok());
  const HostLaunchVariant &chosen = plan.steps[0].variants[*variant];
  EXPECT_EQ(launch.kernel, nvptxSymbol(chosen.symbol));
  EXPECT_EQ(static_cast<int64_t>(launch.grid), *chosen.grid.evaluate(dims));
  EXPECT_EQ(static_cast<int64_t>(launch.threads), chosen.lanes);
  EXPECT_EQ(static_cast<int64_t>(launch.sharedBytes), *chosen.blockBufferBytes(0).evaluate(dims));
  EXPECT_EQ(launch.blockBegin, 0);
  EXPECT_EQ(launch.dims, (std::vector<int64_t>{3, 5}));
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0].shape(), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(floats((*outputs)[0]), x);

  // Device memory returns to the cache: a second call allocates nothing.
  int allocated = state_.allocations;
  ASSERT_TRUE((*executable)->run({input}).ok());
  EXPECT_EQ(state_.allocations, allocated);
  EXPECT_EQ(state_.launches.size(), 2u);
}

/// A softmax over rows of any length: stitched rows, or split ones.
constexpr const char *kRowSoftmax = R"(
func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}
)";

TEST_F(CudaDeviceTest, ReductionsAskForTheirBlockBuffers) {
  std::shared_ptr<Executable> executable;
  absl::StatusOr<std::vector<Tensor>> outputs = runOnOnes(kRowSoftmax, {2, 64}, executable);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_FALSE(state_.launches.empty());
  const HostPlan &plan = executable->plan();
  DimBindings dims{{"R", 2}, {"C", 64}};
  size_t launchIndex = 0;
  for (const HostStep &step : plan.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    const HostLaunchVariant &chosen = step.variants[*chooseVariant(step, dims)];
    for (int phase = 0; phase < chosen.phases; ++phase) {
      ASSERT_LT(launchIndex, state_.launches.size());
      const RecordedLaunch &launch = state_.launches[launchIndex++];
      EXPECT_EQ(launch.kernel, nvptxSymbol(phaseSymbol(chosen.symbol, phase)));
      EXPECT_EQ(static_cast<int64_t>(launch.sharedBytes),
                *chosen.blockBufferBytes(phase).evaluate(dims));
      // Stitched rows keep their row in shared memory.
      EXPECT_GT(launch.sharedBytes, 0u) << launch.kernel;
    }
  }
  EXPECT_EQ(launchIndex, state_.launches.size());
}

/// Column sums in strips of 4 columns: 64 row groups of 4 lanes in a block
/// of 256, each group with a 4-column tile of f64 accumulators.
constexpr const char *kColumnSums = R"(
func @bias_grad(%dy: f32[R, 1024]) -> (db: f32[1024]) {
  %db = reduce_sum %dy {dims = [0]}
  return %db
}
)";

TEST_F(CudaDeviceTest, AColumnReductionAsksForExactlyItsAccumulators) {
  std::shared_ptr<Executable> executable;
  absl::StatusOr<std::vector<Tensor>> outputs = runOnOnes(kColumnSums, {8, 1024}, executable);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(state_.launches.size(), 1u);
  // 64 groups x 4 columns x 8 bytes, nothing else.
  EXPECT_EQ(state_.launches[0].sharedBytes, 64u * 4 * 8);
}

TEST_F(CudaDeviceTest, ASharedMemoryRequestOverTheGpusLimitIsAnError) {
  // Planned for an H200, run on a GPU that gives a block 1 KiB: a block of
  // softmax rows of 64 keeps 32 * 64 + 96 bytes in shared memory.
  state_.sharedOptIn = 1024;
  std::shared_ptr<Executable> executable;
  absl::StatusOr<std::vector<Tensor>> outputs = runOnOnes(kRowSoftmax, {2, 64}, executable);
  ASSERT_NE(executable, nullptr);
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), absl::StatusCode::kResourceExhausted);
  const std::string message(outputs.status().message());
  EXPECT_NE(message.find("kernel k0_"), std::string::npos) << message;
  EXPECT_NE(message.find("a block needs 2144 bytes of shared memory for its block buffers (32*C + "
                         "96), but cuda:0 gives a block at most 768 (1024 less 256 of the "
                         "kernel's own); compile the program for this GPU (--target=cuda:0)"),
            std::string::npos)
      << message;
  EXPECT_TRUE(state_.launches.empty());
}

TEST_F(CudaDeviceTest, PhasesAreLaunchesInOrderOverTheWholeGrid) {
  // One very long row: the row-split variant, whose six phases (partial
  // maxima, their combine, partial sums, theirs, the sum's reciprocal, the
  // products) are six kernels, each over the variant's grid of 2048-column
  // chunks, in blocks of 256 threads; the combines and the reciprocal run
  // their own R blocks inside that grid. No block of its cooperative kernel
  // fits an SM here (occupancy 0).
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kRowSoftmax, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int64_t columns = 4325376;
  std::vector<float> x(static_cast<size_t>(columns), 0.5f);
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)->run({TensorView{ElementType::F32, {1, columns}, x.data()}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  DimBindings dims{{"R", 1}, {"C", columns}};
  const HostStep &step = (*executable)->plan().steps.at(0);
  const HostLaunchVariant &chosen = step.variants[*chooseVariant(step, dims)];
  ASSERT_EQ(chosen.phases, 6) << chosen.symbol;
  ASSERT_EQ(state_.launches.size(), 6u);
  for (int phase = 0; phase < 6; ++phase) {
    const RecordedLaunch &launch = state_.launches[static_cast<size_t>(phase)];
    EXPECT_EQ(launch.kernel, nvptxSymbol(phaseSymbol(chosen.symbol, phase)));
    EXPECT_EQ(launch.grid, static_cast<unsigned>((columns + 2047) / 2048));
    EXPECT_EQ(launch.threads, 256u);
    // Every phase reads the same tables: the same dims and buffers.
    EXPECT_EQ(launch.dims, (std::vector<int64_t>{1, columns}));
    EXPECT_EQ(launch.buffers, state_.launches[0].buffers);
    EXPECT_FALSE(launch.cooperative);
  }
}

// --sync-launches: every launch is waited for, and a kernel that faults is
// named in the run's error rather than surfacing at a later call.
TEST_F(CudaDeviceTest, SynchronizedLaunchesNameTheKernelThatFaults) {
  std::unique_ptr<Module> module;
  const int64_t columns = 4325376;
  std::vector<float> x(static_cast<size_t>(columns), 0.5f);
  TensorView input{ElementType::F32, {1, columns}, x.data()};
  absl::StatusOr<std::shared_ptr<Executable>> plain = load(kRowSoftmax, module);
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_TRUE((*plain)->run({input}).ok());
  size_t plainSyncs = state_.synchronized.size();
  ASSERT_EQ(state_.launches.size(), 6u);

  state_.synchronized.clear();
  state_.launches.clear();
  CudaDeviceOptions options;
  options.context.syncLaunches = true;
  absl::StatusOr<std::shared_ptr<Executable>> synced = load(kRowSoftmax, module, options);
  ASSERT_TRUE(synced.ok()) << synced.status();
  ASSERT_TRUE((*synced)->run({input}).ok());
  EXPECT_EQ(state_.synchronized.size(), plainSyncs + 6) << "one wait after each of 6 launches";

  state_.launches.clear();
  state_.syncResult = 700;
  absl::StatusOr<std::vector<Tensor>> faulted = (*synced)->run({input});
  ASSERT_FALSE(faulted.ok());
  ASSERT_EQ(state_.launches.size(), 1u) << "the run stops at the kernel that faulted";
  const std::string &step = (*synced)->plan().steps.at(0).kernel;
  EXPECT_NE(faulted.status().message().find("kernel " + step + " failed on the GPU"),
            std::string::npos)
      << faulted.status().message();
  state_.syncResult = 0;
}

// A kernel fault (a sticky error) makes the context unusable: the run says
// so, later runs fail at once saying what to do, and a device created with
// resetPrimaryContext (what the device cache does next) runs again. Out of
// memory is no fault: the run is a ResourceExhausted error and the next one
// succeeds.
TEST_F(CudaDeviceTest, AKernelFaultIsToldApartFromOutOfMemory) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> x(15, 1.0f);
  TensorView input{ElementType::F32, {3, 5}, x.data()};

  state_.outOfMemory = true;
  absl::StatusOr<std::vector<Tensor>> run = (*executable)->run({input});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), absl::StatusCode::kResourceExhausted) << run.status();
  EXPECT_TRUE(absl::StrContains(run.status().message(), "out of GPU memory")) << run.status();
  state_.outOfMemory = false;
  EXPECT_TRUE((*executable)->run({input}).ok());
  EXPECT_TRUE(device_->usable());

  state_.syncResult = 700; // CUDA_ERROR_ILLEGAL_ADDRESS
  run = (*executable)->run({input});
  ASSERT_FALSE(run.ok());
  EXPECT_TRUE(absl::StrContains(run.status().message(),
                                "a kernel fault, which leaves cuda:0's context unusable"))
      << run.status();
  EXPECT_FALSE(device_->usable());
  state_.syncResult = 0;
  size_t launches = state_.launches.size();
  run = (*executable)->run({input});
  ASSERT_FALSE(run.ok());
  EXPECT_TRUE(absl::StrContains(run.status().message(),
                                "cuda:0 is unusable since a kernel fault (cuStreamSynchronize: "))
      << run.status();
  EXPECT_EQ(state_.launches.size(), launches) << "a faulted context launches nothing";

  CudaDeviceOptions fresh = recording();
  fresh.context.resetPrimaryContext = true;
  executable = load(kScale, module, fresh);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(state_.resets, 1);
  EXPECT_TRUE((*executable)->run({input}).ok());
}

// Timed runs (--bench, the C API's step timer) time launches with CUDA
// events around them on the run's stream, not with the host's clock.
TEST_F(CudaDeviceTest, LaunchesAreTimedByEvents) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kRowSoftmax, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int64_t columns = 4325376;
  std::vector<float> x(static_cast<size_t>(columns), 0.5f);
  RunStats stats;
  ASSERT_TRUE(
      (*executable)->run({TensorView{ElementType::F32, {1, columns}, x.data()}}, &stats).ok());
  ASSERT_EQ(stats.steps.size(), 1u);
  // The step's six phase launches between its two events: one tick of the
  // fake GPU clock (the host's clock would give anything but 0.25 ms).
  EXPECT_DOUBLE_EQ(stats.steps[0].seconds, 0.25e-3);
  EXPECT_EQ(state_.eventsLive, 0) << "every event is destroyed";
}

// A framework's own context stays current on its thread across xstitch's
// loads and runs.
TEST_F(CudaDeviceTest, TheCallersCurrentContextIsKept) {
  CUcontext framework = reinterpret_cast<CUcontext>(0x77);
  state_.current = framework;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(state_.current, framework) << "after the load";
  std::vector<float> x(12, 1.0f);
  ASSERT_TRUE((*executable)->run({TensorView{ElementType::F32, {3, 4}, x.data()}}).ok());
  EXPECT_EQ(state_.current, framework) << "after the run";
}

TEST_F(CudaDeviceTest, PhasesRunAsOneCooperativeLaunchWhereItsBlocksFit) {
  // The same row-split softmax where two blocks of its cooperative kernel
  // fit each of the 132 SMs: one cooperative launch of 264 blocks, which
  // stride over the 2113 plan blocks and meet at grid barriers through a
  // zeroed word whose address follows the step's buffers.
  state_.occupancy = 2;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kRowSoftmax, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int64_t columns = 4325376;
  std::vector<float> x(static_cast<size_t>(columns), 0.5f);
  const HostStep &step = (*executable)->plan().steps.at(0);
  // Statics: the kernel effect is a plain function.
  static size_t barrierArg;
  static uint32_t wordAtLaunch;
  barrierArg = step.buffers.size();
  wordAtLaunch = 1;
  state_.kernelEffect = [](const RecordedLaunch &launch) {
    const uint64_t word = launch.table[barrierArg];
    EXPECT_EQ(word % 4, 0u);
    wordAtLaunch = *reinterpret_cast<const uint32_t *>(word);
  };
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)->run({TensorView{ElementType::F32, {1, columns}, x.data()}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  DimBindings dims{{"R", 1}, {"C", columns}};
  const HostLaunchVariant &chosen = step.variants[*chooseVariant(step, dims)];
  ASSERT_EQ(chosen.phases, 6) << chosen.symbol;
  ASSERT_TRUE(chosen.cooperative);
  ASSERT_EQ(state_.launches.size(), 1u);
  const RecordedLaunch &launch = state_.launches[0];
  EXPECT_TRUE(launch.cooperative);
  EXPECT_EQ(launch.kernel, nvptxSymbol(cooperativeSymbol(chosen.symbol)));
  EXPECT_EQ(launch.grid, 264u);
  EXPECT_EQ(launch.threads, 256u);
  EXPECT_EQ(launch.blockBegin, 0);
  EXPECT_EQ(launch.dims, (std::vector<int64_t>{1, columns}));
  EXPECT_EQ(wordAtLaunch, 0u);
}

constexpr const char *kProject = R"(
func @project(%a: f32[6], %b: f32[3, N]) -> (p: f32[2, N]) {
  %m = reshape %a : f32[2, 3]
  %p = dot %m, %b
  return %p
}
)";

TEST_F(CudaDeviceTest, ViewsAndLibraryStepsNeedNoKernel) {
  std::unique_ptr<Module> module;
  // A reshape (a view) feeding a dot: no kernel at all. Without cuBLASLt the
  // dot runs on the host.
  CudaDeviceOptions options;
  options.findCublasLt = testing::findNoCublasLt;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kProject, module, options);
  ASSERT_TRUE(executable.ok()) << executable.status();
  size_t matmuls = testing::recordingCublasLtState().matmuls.size();
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, -1, 2, 0.5f, 3};
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)
          ->run({TensorView{ElementType::F32, {6}, a.data()},
                 TensorView{ElementType::F32, {3, 2}, b.data()}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_TRUE(state_.launches.empty());
  ASSERT_EQ(outputs->size(), 1u);
  // [[1,2,3],[4,5,6]] x [[1,0],[-1,2],[0.5,3]]
  EXPECT_EQ((*outputs)[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(floats((*outputs)[0]), (std::vector<float>{0.5f, 13, 2, 28}));
  EXPECT_EQ(testing::recordingCublasLtState().matmuls.size(), matmuls);
  EXPECT_GT(state_.deviceToHost, 1); // the operands went to the host
}

TEST_F(CudaDeviceTest, DotsRunThroughCublasLtOnTheRunsStream) {
  testing::RecordingCublasLtState &blas = testing::recordingCublasLtState();
  blas.matmuls.clear();
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kProject, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, -1, 2, 0.5f, 3};
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)
          ->run({TensorView{ElementType::F32, {6}, a.data()},
                 TensorView{ElementType::F32, {3, 2}, b.data()}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(floats((*outputs)[0]), (std::vector<float>{0.5f, 13, 2, 28}));
  // Row-major [2, 3] x [3, 2] is column-major [2 x 3] x [3 x 2] with the
  // operands swapped: D is N x M = 2 x 2 over K = 3.
  ASSERT_EQ(blas.matmuls.size(), 1u);
  EXPECT_EQ(blas.matmuls[0].rows, 2u);
  EXPECT_EQ(blas.matmuls[0].cols, 2u);
  EXPECT_EQ(blas.matmuls[0].depth, 3u);
  EXPECT_EQ(blas.matmuls[0].batches, 1);
  EXPECT_EQ(blas.matmuls[0].workspaceBytes, testing::kRecordedWorkspaceBytes);
  ASSERT_EQ(state_.launchStreams.size(), 0u);
  // Only the result came back to the host.
  EXPECT_EQ(state_.deviceToHost, 1);

  // Batched, with a shape M != N != K, twice: the second call reuses the
  // descriptors and queries nothing.
  module.reset();
  executable = load(R"(
func @heads(%q: f32[B, 2, 3], %k: f32[B, 3, 4]) -> (s: f32[B, 2, 4]) {
  %s = dot %q, %k
  return %s
}
)",
                    module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> q(2 * 2 * 3), k(2 * 3 * 4);
  for (size_t i = 0; i < q.size(); ++i)
    q[i] = static_cast<float>(i) - 5;
  for (size_t i = 0; i < k.size(); ++i)
    k[i] = 0.5f * static_cast<float>(i % 7);
  std::vector<float> expected;
  for (int batch = 0; batch < 2; ++batch)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j) {
        float sum = 0;
        for (int p = 0; p < 3; ++p)
          sum += q[static_cast<size_t>(batch * 6 + i * 3 + p)] *
                 k[static_cast<size_t>(batch * 12 + p * 4 + j)];
        expected.push_back(sum);
      }
  for (int call = 0; call < 2; ++call) {
    outputs = (*executable)
                  ->run({TensorView{ElementType::F32, {2, 2, 3}, q.data()},
                         TensorView{ElementType::F32, {2, 3, 4}, k.data()}});
    ASSERT_TRUE(outputs.ok()) << outputs.status();
    EXPECT_EQ(floats((*outputs)[0]), expected);
  }
  ASSERT_EQ(blas.matmuls.size(), 3u);
  EXPECT_EQ(blas.matmuls[1].batches, 2);
  EXPECT_EQ(blas.matmuls[1].rows, 4u); // N
  EXPECT_EQ(blas.matmuls[1].cols, 2u); // M
  EXPECT_EQ(blas.matmuls[1].depth, 3u);
  // Descriptors live while the device does; none leaks once it goes.
  device_.reset();
  executable = absl::InternalError("released");
  EXPECT_EQ(blas.descriptorsLive, 0);
}

TEST_F(CudaDeviceTest, DeviceTensorsAreUsedInPlaceOnTheCallersStream) {
  state_.kernelEffect = copyFirstBufferToSecond;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  // "Device" memory of the caller's: 16-byte aligned, as cuMemAlloc's is.
  alignas(256) static float x[3 * 5], y[3 * 5];
  for (size_t i = 0; i < 15; ++i)
    x[i] = static_cast<float>(i);
  CUstream callers = reinterpret_cast<CUstream>(0x77);
  int tableUploads = state_.hostToDevice;
  RunRequest request;
  request.inputs = {TensorView{ElementType::F32, {3, 5}, x}};
  request.outputs = {TensorView{ElementType::F32, {3, 5}, y}};
  request.deviceMemory = true;
  request.stream = callers;
  absl::StatusOr<RunResult> result = (*executable)->execute(request);
  ASSERT_TRUE(result.ok()) << result.status();
  // The launch read x and wrote y where they are: no copy of either.
  ASSERT_EQ(state_.launches.size(), 1u);
  EXPECT_EQ(state_.launches[0].buffers[0], reinterpret_cast<uint64_t>(x));
  EXPECT_EQ(state_.launches[0].buffers[1], reinterpret_cast<uint64_t>(y));
  EXPECT_EQ(std::vector<float>(y, y + 15), std::vector<float>(x, x + 15));
  EXPECT_EQ(result->bytesCopied, 0);
  EXPECT_FALSE(result->outputs[0].has_value());
  EXPECT_EQ(state_.deviceToHost, 0);
  EXPECT_EQ(state_.deviceToDevice, 0);
  EXPECT_EQ(state_.hostToDevice, tableUploads + 1); // the kernel-argument table only
  // Queued on the caller's stream, and left queued there: the run
  // returned without waiting for any stream.
  EXPECT_EQ(state_.launchStreams, (std::vector<CUstream>{callers}));
  EXPECT_TRUE(state_.synchronized.empty());

  // Outputs the run allocates stay on the device, handed over without a copy.
  request.outputs.clear();
  result = (*executable)->execute(request);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->outputs[0].has_value());
  EXPECT_EQ(result->bytesCopied, 0);
  EXPECT_EQ(state_.deviceToHost, 0);
  EXPECT_EQ(state_.launches[1].buffers[1], reinterpret_cast<uint64_t>(result->outputs[0]->data()));
  EXPECT_EQ(result->shapes[0], (std::vector<int64_t>{3, 5}));
}

TEST_F(CudaDeviceTest, RunsLeftQueuedHoldTheirMemoryUntilTheirStreamPassesThem) {
  state_.kernelEffect = copyFirstBufferToSecond;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  alignas(256) static float x[3 * 5], y[3 * 5];
  RunRequest request;
  request.inputs = {TensorView{ElementType::F32, {3, 5}, x}};
  request.outputs = {TensorView{ElementType::F32, {3, 5}, y}};
  request.deviceMemory = true;
  request.stream = reinterpret_cast<CUstream>(0x77);
  state_.eventsDone = false;
  ASSERT_TRUE((*executable)->execute(request).ok());
  int allocated = state_.allocations;
  ASSERT_TRUE((*executable)->execute(request).ok());
  // The first run's argument table is still queued: the second took more.
  EXPECT_GT(state_.allocations, allocated);
  // Once the stream has passed the runs, the next runs reuse their memory.
  state_.eventsDone = true;
  allocated = state_.allocations;
  ASSERT_TRUE((*executable)->execute(request).ok());
  ASSERT_TRUE((*executable)->execute(request).ok());
  EXPECT_EQ(state_.allocations, allocated);
  EXPECT_TRUE(state_.synchronized.empty());
  // A timed run waits for its stream (its events are read after it).
  RunStats stats;
  ASSERT_TRUE((*executable)->execute(request, &stats).ok());
  ASSERT_FALSE(state_.synchronized.empty());
  for (CUstream s : state_.synchronized)
    EXPECT_EQ(s, request.stream);
}

/// The status word slot (HostPlan::symbols.size()) and what the "kernel"
/// raises there: a failed check of code 0 with the index 7.
size_t statusSlot = 0;
void raiseIndexSeven(const RecordedLaunch &launch) {
  launch.dimsArray[statusSlot] = static_cast<int64_t>(encodeStatusWord(0, 7));
}

TEST_F(CudaDeviceTest, AStatusWordTheKernelsRaiseFailsTheRunNamingTheOp) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(R"(
func @pick(%x: f32[N], %i: i64[M]) -> (y: f32[M]) {
  %y = gather %x, %i {dim = 0}
  return %y
}
)",
                                                                module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  ASSERT_EQ((*executable)->plan().checks.size(), 1u);
  statusSlot = (*executable)->plan().symbols.size();
  std::vector<float> x = {1, 2, 3};
  std::vector<int64_t> index = {0, 7, 1, 2};
  std::vector<TensorView> inputs = {TensorView{ElementType::F32, {3}, x.data()},
                                    TensorView{ElementType::I64, {4}, index.data()}};
  // A kernel that raises nothing: the run succeeds.
  ASSERT_TRUE((*executable)->run(inputs).ok());
  state_.kernelEffect = raiseIndexSeven;
  absl::StatusOr<std::vector<Tensor>> outputs = (*executable)->run(inputs);
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(outputs.status().message(),
                                "%y = gather in kernel k0_gather: index 7 is out of range for a "
                                "dim of size 3 (valid: -3 to 2)"))
      << outputs.status().message();

  // On the caller's stream with device tensors, a program with checks
  // still waits for the stream, to read the word.
  alignas(256) static float deviceX[3] = {1, 2, 3}, deviceY[4];
  alignas(256) static int64_t deviceIndex[4] = {0, 7, 1, 2};
  RunRequest request;
  request.inputs = {TensorView{ElementType::F32, {3}, deviceX},
                    TensorView{ElementType::I64, {4}, deviceIndex}};
  request.outputs = {TensorView{ElementType::F32, {4}, deviceY}};
  request.deviceMemory = true;
  request.stream = reinterpret_cast<CUstream>(0x77);
  state_.synchronized.clear();
  absl::StatusOr<RunResult> result = (*executable)->execute(request);
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(state_.synchronized.empty());
}

TEST_F(CudaDeviceTest, ADriverOlderThanThePtxIsaIsNamed) {
  // sm_90 kernels are PTX ISA 7.8, which CUDA 11.8 introduced.
  state_.driverVersion = 11040;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(
      absl::StrContains(executable.status().message(),
                        "supports CUDA 11.4, but the kernels of @scale are PTX ISA 7.8 (for "
                        "sm_90), which needs a driver for CUDA 11.8 or newer"))
      << executable.status().message();
  EXPECT_TRUE(state_.modules.empty()) << "the PTX went to a driver that cannot load it";
  state_.driverVersion = 11080;
  EXPECT_TRUE(load(kScale, module).ok());
}

TEST_F(CudaDeviceTest, HostSymbolsReadDeviceInputsThroughAHostCopy) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(R"(
func @view(%x: f32[N], %shape: i64[2]) -> (y)
    host_symbols R0, R1 {
      %s0 = slice %shape {limit = [1], start = [0]} : i64[1]
      %r0 = reshape %s0 : i64[]
      %s1 = slice %shape {limit = [2], start = [1]} : i64[1]
      %r1 = reshape %s1 : i64[]
      return %r0, %r1
    }
    where N == R0*R1 {
  %two = constant {value = 2.0} : f32[N]
  %d = mul %x, %two
  %y = reshape %d : f32[R0, R1]
  return %y
}
)",
                                                                module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  alignas(256) static float x[6];
  alignas(256) static int64_t shape[2] = {2, 3};
  RunRequest request;
  request.inputs = {TensorView{ElementType::F32, {6}, x}, TensorView{ElementType::I64, {2}, shape}};
  request.deviceMemory = true;
  absl::StatusOr<RunResult> result = (*executable)->execute(request);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->shapes[0], (std::vector<int64_t>{2, 3}));
  // Only the shape the host symbols read came to the host; x stayed.
  EXPECT_EQ(state_.deviceToHost, 1);
  EXPECT_EQ(result->bytesCopied, static_cast<int64_t>(sizeof shape));
  ASSERT_EQ(state_.launches.size(), 1u);
  EXPECT_EQ(state_.launches[0].buffers[0], reinterpret_cast<uint64_t>(x));

  // A shape that disagrees with x is the constraint's error.
  shape[1] = 4;
  result = (*executable)->execute(request);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();
}

TEST_F(CudaDeviceTest, InputErrorsNameTheInputs) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(R"(
func @add(%a: f32[N], %b: f32[N]) -> (c: f32[N]) {
  %c = add %a, %b
  return %c
}
)",
                                                                module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a(4), b(5);
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)
          ->run({TensorView{ElementType::F32, {4}, a.data()},
                 TensorView{ElementType::F32, {5}, b.data()}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(outputs.status().message().find("%b"), std::string::npos) << outputs.status();
  EXPECT_TRUE(state_.launches.empty());
}

TEST_F(CudaDeviceTest, ThePtxTheDriverRefusesIsAnErrorWithItsLog) {
  state_.rejectPtx = true;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(R"(
func @neg(%a: f32[N]) -> (c: f32[N]) {
  %c = neg %a
  return %c
}
)",
                                                                module);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kInternal);
  std::string message(executable.status().message());
  EXPECT_NE(message.find("cannot load the PTX of @neg"), std::string::npos) << message;
  EXPECT_NE(message.find("cuModuleLoadDataEx: CUDA_ERROR_FAKE"), std::string::npos) << message;
  EXPECT_NE(message.find("ptxas fatal: no kernel today"), std::string::npos) << message;
}

TEST_F(CudaDeviceTest, AMissingKernelIsAnErrorNamingIt) {
  absl::StatusOr<std::unique_ptr<Device>> device = createCudaDevice(driver_, {});
  ASSERT_TRUE(device.ok()) << device.status();
  // A plan launching a kernel the PTX does not define.
  HostPlan plan;
  plan.function = "f";
  HostStep step;
  step.kernel = "k0_neg";
  step.variants.push_back(HostLaunchVariant{{}, "k0_neg.v0", DimExpr(1)});
  step.variants.back().lanes = 256;
  plan.steps.push_back(step);
  absl::StatusOr<std::shared_ptr<Executable>> executable = (*device)->load(
      CompiledProgram{plan, "ptx", {".version 7.8\n.target sm_90\n.entry other() { ret; }\n"}});
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(executable.status().message().find("has no kernel k0_neg_$_v0"), std::string::npos)
      << executable.status();
}

TEST_F(CudaDeviceTest, AGpuThatIsNotThereIsAnError) {
  CudaDeviceOptions options;
  options.ordinal = 3;
  absl::StatusOr<std::unique_ptr<Device>> device = createCudaDevice(driver_, options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(device.status().message().find("there is no CUDA device 3; devices are 0 to 0"),
            std::string::npos)
      << device.status();
  state_.devices = 0;
  device = createCudaDevice(driver_, {});
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.status().message().find("there is no CUDA device"), std::string::npos);
}

TEST_F(CudaDeviceTest, DeviceMemoryIsFreedWithTheDevice) {
  std::unique_ptr<Module> module;
  {
    absl::StatusOr<std::shared_ptr<Executable>> executable = load(R"(
func @neg(%a: f32[N]) -> (c: f32[N]) {
  %c = neg %a
  return %c
}
)",
                                                                  module);
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<float> a(1000, 1.0f);
    ASSERT_TRUE((*executable)->run({TensorView{ElementType::F32, {1000}, a.data()}}).ok());
    EXPECT_FALSE(state_.live.empty());
    device_.reset();
  }
  EXPECT_TRUE(state_.live.empty()) << state_.live.size() << " device blocks still allocated";
}

// Allocation failures injected at every device and pinned allocation of a
// load and a run (from the k-th request on, for each k up to the count of a
// clean one): each is an error, and every block goes back with the device.
TEST_F(CudaDeviceTest, EveryFailedAllocationIsAnError) {
  state_.kernelEffect = copyFirstBufferToSecond;
  for (const char *text : {kScale, kProject}) {
    std::vector<float> x(15, 1.0f), b = {1, 0, -1, 2, 0.5f, 3};
    std::vector<TensorView> inputs =
        text == kScale ? std::vector<TensorView>{TensorView{ElementType::F32, {3, 5}, x.data()}}
                       : std::vector<TensorView>{TensorView{ElementType::F32, {6}, x.data()},
                                                 TensorView{ElementType::F32, {3, 2}, b.data()}};
    auto loadAndRun = [&]() -> absl::Status {
      std::unique_ptr<Module> module;
      absl::StatusOr<std::shared_ptr<Executable>> executable = load(text, module);
      if (!executable.ok())
        return executable.status();
      return (*executable)->run(inputs).status();
    };
    state_.failFrom = 0;
    state_.allocationRequests = 0;
    ASSERT_TRUE(loadAndRun().ok());
    int requests = state_.allocationRequests;
    ASSERT_GT(requests, 1);
    for (int k = 1; k <= requests; ++k) {
      state_.failFrom = k;
      state_.allocationRequests = 0;
      absl::Status status = loadAndRun();
      EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted)
          << "allocation " << k << " of " << requests << ": " << status;
      device_.reset();
      EXPECT_TRUE(state_.live.empty()) << "allocation " << k << ": device memory left behind";
    }
    state_.failFrom = 0;
  }
}

} // namespace
} // namespace xs::cuda
