// The HIP device's host side on a recording HIP: a HipDriver whose entry
// points keep "device" memory in host memory and record every module load
// and launch, with programs compiled to HSA code objects for the recording
// GPU (gfx942). What runs on an AMD GPU is checked on one; here the host
// side is: the code objects and kernel symbols it loads, the launch
// configurations (grid, threads, LDS, the dims and buffer tables), copies,
// cooperative launches where the library has them and launches per phase
// where it does not, the current device of the caller, device tensors on the
// caller's stream, and the errors (a code object for another processor, one
// HIP refuses, a kernel fault).

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/amdgpu/AmdgpuBackend.h"
#include "ir/Parser.h"
#include "runtime/Executable.h"
#include "runtime/HostPlanExecution.h"
#include "runtime/hip/HipDevice.h"
#include "tests/unit/ElfImage.h"
#include "tests/unit/RecordingRocblas.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs::hip {
namespace {

struct RecordedLaunch {
  std::string kernel;
  unsigned grid = 0, threads = 0, sharedBytes = 0;
  std::vector<int64_t> dims;     // the first two values of the dims array
  std::vector<uint64_t> buffers; // the first two entries of the buffer table
  const uint64_t *table = nullptr;
  int64_t blockBegin = 0;
  bool cooperative = false; // hipModuleLaunchCooperativeKernel
  hipStream_t stream = nullptr;
};

/// The state behind the recording entry points.
struct RecordingGpu {
  std::string arch = "gfx942:sramecc+:xnack-"; // gcnArchName
  int devices = 2;
  int current = 0; // hipGetDevice
  std::vector<int> setDevices;
  std::set<void *> live; // device allocations
  int allocations = 0;
  std::vector<std::string> modules; // code objects loaded
  std::vector<std::string> functions;
  std::vector<RecordedLaunch> launches;
  void (*kernelEffect)(const RecordedLaunch &) = nullptr;
  hipError_t loadResult = 0;
  hipError_t syncResult = 0;
  int occupancy = 0;
  int hostToDevice = 0, deviceToHost = 0, deviceToDevice = 0;
  std::vector<hipStream_t> synchronized;
  int resets = 0;
};
RecordingGpu *gpu = nullptr;

constexpr int kStaticLds = 128;

hipError_t deviceCount(int *count) {
  *count = gpu->devices;
  return 0;
}
hipError_t deviceGet(hipDevice_t *device, int ordinal) {
  *device = ordinal;
  return 0;
}
hipError_t deviceName(char *name, int length, hipDevice_t) {
  std::snprintf(name, static_cast<size_t>(length), "Recording MI300X");
  return 0;
}
hipError_t attribute(int *value, int attribute, int) {
  // An MI300X's: CUs, wavefront, threads per workgroup and per CU, LDS per
  // workgroup and per CU, L2, cooperative launch.
  static const std::map<int, int> attributes = {{63, 304},     {87, 64},    {56, 1024},
                                                {57, 2048},    {74, 65536}, {10002, 65536},
                                                {19, 4 << 20}, {10, 1}};
  auto found = attributes.find(attribute);
  if (found == attributes.end())
    return 1;
  *value = found->second;
  return 0;
}
hipError_t totalMemory(size_t *bytes, hipDevice_t) {
  *bytes = size_t{192} << 30;
  return 0;
}
hipError_t properties(void *out, int) {
  std::memset(out, 0, 792);
  std::snprintf(static_cast<char *>(out) + 396, 256, "%s", gpu->arch.c_str());
  return 0;
}
hipError_t setDevice(int ordinal) {
  gpu->setDevices.push_back(ordinal);
  gpu->current = ordinal;
  return ordinal < gpu->devices ? 0 : 101;
}
hipError_t getDevice(int *ordinal) {
  *ordinal = gpu->current;
  return 0;
}
hipError_t deviceReset() {
  ++gpu->resets;
  return 0;
}
hipError_t moduleLoad(hipModule_t *module, const void *image) {
  if (gpu->loadResult != 0)
    return gpu->loadResult;
  const char *bytes = static_cast<const char *>(image);
  EXPECT_EQ(std::string(bytes, 4), "\x7f"
                                   "ELF");
  gpu->modules.emplace_back(bytes, xs::testing::elfImageSize(bytes));
  *module = reinterpret_cast<hipModule_t>(gpu->modules.size());
  return 0;
}
hipError_t moduleUnload(hipModule_t) { return 0; }
hipError_t getFunction(hipFunction_t *function, hipModule_t module, const char *name) {
  const std::string &object = gpu->modules[reinterpret_cast<uintptr_t>(module) - 1];
  // The symbol table holds the kernel's name, NUL-terminated.
  if (object.find(std::string(name) + '\0') == std::string::npos)
    return 500; // hipErrorNotFound
  gpu->functions.push_back(name);
  *function = reinterpret_cast<hipFunction_t>(gpu->functions.size());
  return 0;
}
hipError_t funcAttribute(int *value, int attribute, hipFunction_t) {
  *value = attribute == 1 ? kStaticLds : 0;
  return 0;
}
hipError_t occupancy(int *blocks, hipFunction_t, int, size_t) {
  *blocks = gpu->occupancy;
  return 0;
}
hipError_t allocate(void **pointer, size_t bytes) {
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  gpu->live.insert(*pointer);
  ++gpu->allocations;
  return 0;
}
hipError_t release(void *pointer) {
  gpu->live.erase(pointer);
  std::free(pointer);
  return 0;
}
hipError_t hostAllocate(void **pointer, size_t bytes, unsigned) {
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
hipError_t hostRelease(void *pointer) {
  std::free(pointer);
  return 0;
}
hipError_t copyToDevice(void *to, void *from, size_t bytes) {
  std::memcpy(to, from, bytes);
  return 0;
}
hipError_t copyToDeviceAsync(void *to, void *from, size_t bytes, hipStream_t) {
  ++gpu->hostToDevice;
  std::memcpy(to, from, bytes);
  return 0;
}
hipError_t copyToHostAsync(void *to, void *from, size_t bytes, hipStream_t) {
  ++gpu->deviceToHost;
  std::memcpy(to, from, bytes);
  return 0;
}
hipError_t copyOnDeviceAsync(void *to, void *from, size_t bytes, hipStream_t) {
  ++gpu->deviceToDevice;
  std::memcpy(to, from, bytes);
  return 0;
}
hipError_t streamCreate(hipStream_t *stream, unsigned flags) {
  EXPECT_EQ(flags, 1u); // hipStreamNonBlocking
  *stream = reinterpret_cast<hipStream_t>(0x2);
  return 0;
}
hipError_t streamDestroy(hipStream_t) { return 0; }
hipError_t streamSynchronize(hipStream_t stream) {
  gpu->synchronized.push_back(stream);
  return gpu->syncResult;
}
hipError_t eventCreate(hipEvent_t *event, unsigned) {
  static uintptr_t next = 0x5000;
  *event = reinterpret_cast<hipEvent_t>(++next);
  return 0;
}
hipError_t eventDestroy(hipEvent_t) { return 0; }
hipError_t eventRecord(hipEvent_t, hipStream_t) { return 0; }
hipError_t eventSynchronize(hipEvent_t) { return 0; }
hipError_t eventQuery(hipEvent_t) { return 0; }
hipError_t eventElapsed(float *milliseconds, hipEvent_t, hipEvent_t) {
  *milliseconds = 0.25f;
  return 0;
}
hipError_t launch(hipFunction_t function, unsigned gridX, unsigned gridY, unsigned gridZ,
                  unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                  hipStream_t stream, void **params, void **extra) {
  EXPECT_EQ(gridY * gridZ * blockY * blockZ, 1u);
  EXPECT_EQ(extra, nullptr);
  RecordedLaunch recorded;
  recorded.kernel = gpu->functions[reinterpret_cast<uintptr_t>(function) - 1];
  recorded.grid = gridX;
  recorded.threads = blockX;
  recorded.sharedBytes = sharedBytes;
  recorded.stream = stream;
  auto buffers = reinterpret_cast<const uint64_t *>(*static_cast<uint64_t *>(params[0]));
  auto dims = reinterpret_cast<const int64_t *>(*static_cast<uint64_t *>(params[1]));
  recorded.blockBegin = *static_cast<int64_t *>(params[2]);
  recorded.buffers.assign(buffers, buffers + 2);
  recorded.table = buffers;
  recorded.dims.assign(dims, dims + 2);
  if (gpu->kernelEffect)
    gpu->kernelEffect(recorded);
  gpu->launches.push_back(std::move(recorded));
  return 0;
}
hipError_t cooperativeLaunch(hipFunction_t function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, hipStream_t stream, void **params) {
  hipError_t result = launch(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                             stream, params, nullptr);
  gpu->launches.back().cooperative = true;
  return result;
}

HipDriver recordingHip() {
  HipDriver d;
  d.hipGetErrorName = [](hipError_t e) -> const char * {
    switch (e) {
    case 200:
      return "hipErrorInvalidImage";
    case 700:
      return "hipErrorIllegalAddress";
    default:
      return nullptr;
    }
  };
  d.hipGetErrorString = [](hipError_t) -> const char * { return nullptr; };
  d.hipGetDeviceCount = deviceCount;
  d.hipDeviceGet = deviceGet;
  d.hipDeviceGetName = deviceName;
  d.hipDeviceGetAttribute = attribute;
  d.hipDeviceTotalMem = totalMemory;
  d.hipGetDeviceProperties = properties;
  d.hipSetDevice = setDevice;
  d.hipGetDevice = getDevice;
  d.hipDeviceReset = deviceReset;
  d.hipModuleLoadData = moduleLoad;
  d.hipModuleUnload = moduleUnload;
  d.hipModuleGetFunction = getFunction;
  d.hipFuncGetAttribute = funcAttribute;
  d.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor = occupancy;
  d.hipMalloc = allocate;
  d.hipFree = release;
  d.hipHostMalloc = hostAllocate;
  d.hipHostFree = hostRelease;
  d.hipMemcpyHtoD = copyToDevice;
  d.hipMemcpyHtoDAsync = copyToDeviceAsync;
  d.hipMemcpyDtoHAsync = copyToHostAsync;
  d.hipMemcpyDtoDAsync = copyOnDeviceAsync;
  d.hipStreamCreateWithFlags = streamCreate;
  d.hipStreamDestroy = streamDestroy;
  d.hipStreamSynchronize = streamSynchronize;
  d.hipEventCreateWithFlags = eventCreate;
  d.hipEventDestroy = eventDestroy;
  d.hipEventRecord = eventRecord;
  d.hipEventSynchronize = eventSynchronize;
  d.hipEventQuery = eventQuery;
  d.hipEventElapsedTime = eventElapsed;
  d.hipModuleLaunchKernel = launch;
  d.hipModuleLaunchCooperativeKernel = cooperativeLaunch;
  return d;
}

class HipDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    gpu = &state_;
    driver_ = recordingHip();
  }
  void TearDown() override {
    device_.reset();
    gpu = nullptr;
  }

  /// Options with the recording rocBLAS.
  static HipDeviceOptions recording() {
    HipDeviceOptions options;
    options.findRocblas = testing::findRecordingRocblas;
    return options;
  }
  /// `text` through the default pipeline, planned and compiled to an HSA
  /// code object for `arch`, loaded on the recording GPU.
  absl::StatusOr<std::shared_ptr<Executable>> load(const std::string &text,
                                                   std::unique_ptr<Module> &module,
                                                   const HipDeviceOptions &options = recording(),
                                                   std::string_view arch = "gfx942") {
    XS_ASSIGN_OR_RETURN(module, parseModule(text, "test.xs"));
    XS_RETURN_IF_ERROR(runPipeline(*module, defaultPipeline(), {}));
    AmdgpuOptions amdgpu;
    XS_ASSIGN_OR_RETURN(amdgpu.limits, amdgpuPreset(arch));
    XS_ASSIGN_OR_RETURN(ProgramPlan plan, planProgram(*module->functions().front(),
                                                      amdgpuTargetDescriptionOf(amdgpu), {}));
    XS_ASSIGN_OR_RETURN(std::string hsaco, emitHsaco(plan, amdgpu));
    XS_ASSIGN_OR_RETURN(device_, createHipDevice(driver_, options));
    return device_->load(CompiledProgram{plan.host, "hsaco", {hsaco}});
  }

  RecordingGpu state_;
  HipDriver driver_;
  std::unique_ptr<Device> device_;
};

std::vector<float> floats(const Tensor &t) {
  const float *data = static_cast<const float *>(t.data());
  return std::vector<float>(data, data + t.view().numElements());
}

constexpr const char *kScale = R"(
func @scale(%x: f32[R, C]) -> (y: f32[R, C]) {
  %two = constant {value = 2.0} : f32[R, C]
  %y = mul %x, %two
  return %y
}
)";

constexpr const char *kRowSoftmax = R"(
func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}
)";

/// One row long enough for the row-split variant, whose phases run as one
/// cooperative kernel or a launch each.
constexpr int64_t kLongRow = 4325376;

/// Runs `softmax` (kRowSoftmax) on one row of kLongRow; returns the variant
/// the run chose.
HostLaunchVariant runOneLongRow(const Executable &softmax) {
  std::vector<float> x(static_cast<size_t>(kLongRow), 0.5f);
  EXPECT_TRUE(softmax.run({TensorView{ElementType::F32, {1, kLongRow}, x.data()}}).ok());
  const HostStep &step = softmax.plan().steps.at(0);
  return step.variants[*chooseVariant(step, {{"R", 1}, {"C", kLongRow}})];
}

/// A "kernel" that copies its R x C input to its output.
void copyFirstBufferToSecond(const RecordedLaunch &launch) {
  std::memcpy(reinterpret_cast<void *>(launch.buffers[1]),
              reinterpret_cast<const void *>(launch.buffers[0]),
              static_cast<size_t>(launch.dims[0] * launch.dims[1]) * sizeof(float));
}

TEST_F(HipDeviceTest, LaunchesWithThePlansConfigurationAndCopiesResultsBack) {
  state_.kernelEffect = copyFirstBufferToSecond;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->deviceName(), "hip:0");
  ASSERT_EQ(state_.modules.size(), 1u);
  const HostPlan &plan = (*executable)->plan();
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
  const HostLaunchVariant &chosen = plan.steps[0].variants[*chooseVariant(plan.steps[0], dims)];
  // HSA code objects keep the plan's symbols as they are.
  EXPECT_EQ(launch.kernel, chosen.symbol);
  EXPECT_EQ(static_cast<int64_t>(launch.grid), *chosen.grid.evaluate(dims));
  EXPECT_EQ(static_cast<int64_t>(launch.threads), chosen.lanes);
  EXPECT_EQ(chosen.lanes % 64, 0) << "whole wavefronts";
  EXPECT_EQ(static_cast<int64_t>(launch.sharedBytes), *chosen.blockBufferBytes(0).evaluate(dims));
  EXPECT_EQ(launch.dims, (std::vector<int64_t>{3, 5}));
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ(floats((*outputs)[0]), x);
  EXPECT_GE(state_.hostToDevice, 2); // the input and the kernel-argument table
  EXPECT_EQ(state_.deviceToHost, 1); // the result

  // Device memory returns to the cache: a second call allocates nothing.
  int allocated = state_.allocations;
  ASSERT_TRUE((*executable)->run({input}).ok());
  EXPECT_EQ(state_.allocations, allocated);
}

TEST_F(HipDeviceTest, TheCallersCurrentDeviceIsKept) {
  state_.current = 1; // a framework's thread works on GPU 1
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(state_.current, 1) << "after the load";
  std::vector<float> x(12, 1.0f);
  state_.setDevices.clear();
  ASSERT_TRUE((*executable)->run({TensorView{ElementType::F32, {3, 4}, x.data()}}).ok());
  EXPECT_EQ(state_.current, 1) << "after the run";
  ASSERT_FALSE(state_.setDevices.empty());
  EXPECT_EQ(state_.setDevices.front(), 0) << "the run works on hip:0";
}

TEST_F(HipDeviceTest, PhasesRunAsOneCooperativeLaunchWhereTheLibraryHasIt) {
  state_.occupancy = 2;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kRowSoftmax, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  HostLaunchVariant chosen = runOneLongRow(**executable);
  DimBindings dims{{"R", 1}, {"C", kLongRow}};
  ASSERT_GT(chosen.phases, 1) << chosen.symbol;
  ASSERT_TRUE(chosen.cooperative);
  ASSERT_EQ(state_.launches.size(), 1u);
  const RecordedLaunch &launch = state_.launches[0];
  EXPECT_TRUE(launch.cooperative);
  EXPECT_EQ(launch.kernel, cooperativeSymbol(chosen.symbol));
  // Two workgroups on each of the 304 CUs, or the whole grid if smaller.
  EXPECT_EQ(static_cast<int64_t>(launch.grid), std::min<int64_t>(*chosen.grid.evaluate(dims), 608));
  EXPECT_EQ(static_cast<int64_t>(launch.threads), chosen.lanes);
}

TEST_F(HipDeviceTest, PhasesAreLaunchesInOrderWhereTheLibraryHasNoCooperativeLaunch) {
  // ROCm 5's HIP has no hipModuleLaunchCooperativeKernel: however many
  // workgroups fit, each phase is a launch of its own.
  driver_.hipModuleLaunchCooperativeKernel = nullptr;
  state_.occupancy = 2;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kRowSoftmax, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  HostLaunchVariant chosen = runOneLongRow(**executable);
  DimBindings dims{{"R", 1}, {"C", kLongRow}};
  ASSERT_EQ(state_.launches.size(), static_cast<size_t>(chosen.phases));
  for (int phase = 0; phase < chosen.phases; ++phase) {
    const RecordedLaunch &launch = state_.launches[static_cast<size_t>(phase)];
    EXPECT_EQ(launch.kernel, phaseSymbol(chosen.symbol, phase));
    EXPECT_FALSE(launch.cooperative);
    EXPECT_EQ(static_cast<int64_t>(launch.grid), *chosen.grid.evaluate(dims));
    EXPECT_EQ(launch.buffers, state_.launches[0].buffers);
  }
}

TEST_F(HipDeviceTest, DeviceTensorsAreUsedInPlaceOnTheCallersStream) {
  state_.kernelEffect = copyFirstBufferToSecond;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  alignas(256) static float x[3 * 5], y[3 * 5];
  for (size_t i = 0; i < 15; ++i)
    x[i] = static_cast<float>(i);
  hipStream_t callers = reinterpret_cast<hipStream_t>(0x77);
  int uploads = state_.hostToDevice;
  RunRequest request;
  request.inputs = {TensorView{ElementType::F32, {3, 5}, x}};
  request.outputs = {TensorView{ElementType::F32, {3, 5}, y}};
  request.deviceMemory = true;
  request.stream = callers;
  absl::StatusOr<RunResult> result = (*executable)->execute(request);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(state_.launches.size(), 1u);
  EXPECT_EQ(state_.launches[0].buffers[0], reinterpret_cast<uint64_t>(x));
  EXPECT_EQ(state_.launches[0].buffers[1], reinterpret_cast<uint64_t>(y));
  EXPECT_EQ(state_.launches[0].stream, callers);
  EXPECT_EQ(std::vector<float>(y, y + 15), std::vector<float>(x, x + 15));
  EXPECT_EQ(result->bytesCopied, 0);
  EXPECT_EQ(state_.deviceToHost, 0);
  EXPECT_EQ(state_.hostToDevice, uploads + 1); // the kernel-argument table only
  EXPECT_TRUE(state_.synchronized.empty()) << "left queued on the caller's stream";
}

constexpr const char *kProject = R"(
func @project(%a: f32[6], %b: f32[3, N]) -> (p: f32[2, N]) {
  %m = reshape %a : f32[2, 3]
  %p = dot %m, %b
  return %p
}
)";

TEST_F(HipDeviceTest, DotRunsThroughRocblasOnTheRunsStream) {
  testing::RecordingRocblasState &blas = testing::recordingRocblasState();
  blas.gemms.clear();
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
  // Row-major [2, 3] x [3, 2] is rocBLAS's column-major N x M over K, on the
  // stream the run's copies use; nothing went through the host.
  ASSERT_EQ(blas.gemms.size(), 1u);
  const testing::RecordedGemm &gemm = blas.gemms[0];
  EXPECT_EQ(gemm.entryPoint, "rocblas_sgemm_strided_batched");
  EXPECT_EQ(gemm.m, 2);
  EXPECT_EQ(gemm.n, 2);
  EXPECT_EQ(gemm.k, 3);
  EXPECT_EQ(gemm.batches, 1);
  EXPECT_EQ(gemm.stream, reinterpret_cast<void *>(0x2)); // the pool's stream
  EXPECT_EQ(state_.deviceToHost, 1);                     // the result only
  device_.reset();
  executable->reset();
  EXPECT_EQ(blas.handlesLive, 0);
}

TEST_F(HipDeviceTest, DotRunsOnTheHostWithoutRocblas) {
  std::unique_ptr<Module> module;
  HipDeviceOptions options;
  options.findRocblas = testing::findNoRocblas;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kProject, module, options);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, -1, 2, 0.5f, 3};
  absl::StatusOr<std::vector<Tensor>> outputs =
      (*executable)
          ->run({TensorView{ElementType::F32, {6}, a.data()},
                 TensorView{ElementType::F32, {3, 2}, b.data()}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_TRUE(state_.launches.empty());
  EXPECT_EQ(floats((*outputs)[0]), (std::vector<float>{0.5f, 13, 2, 28}));
}

TEST_F(HipDeviceTest, ACodeObjectForAnotherProcessorIsRefusedSayingWhatToDo) {
  state_.arch = "gfx90a:sramecc+:xnack-";
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module, {}, "gfx942");
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(executable.status().message(),
            "the kernels of @scale are for gfx942, but hip:0 (Recording MI300X) is a gfx90a: "
            "compile for it (--device=hip:0 or --target=gfx90a)");
  EXPECT_TRUE(state_.modules.empty());
}

TEST_F(HipDeviceTest, ACodeObjectHipRefusesIsAnErrorNamingTheCall) {
  state_.loadResult = 200;
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(executable.status().message(),
            "the AMD driver cannot load the HSA code object of @scale: hipModuleLoadData: "
            "hipErrorInvalidImage");
}

TEST_F(HipDeviceTest, AKernelFaultLeavesTheDeviceUnusableSayingSo) {
  std::unique_ptr<Module> module;
  absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> x(12, 1.0f);
  TensorView input{ElementType::F32, {3, 4}, x.data()};
  state_.syncResult = 700;
  absl::StatusOr<std::vector<Tensor>> faulted = (*executable)->run({input});
  ASSERT_FALSE(faulted.ok());
  EXPECT_NE(faulted.status().message().find(
                "hipStreamSynchronize: hipErrorIllegalAddress: a kernel fault, which leaves hip:0"),
            std::string::npos)
      << faulted.status().message();
  EXPECT_FALSE(device_->usable());
  state_.syncResult = 0;
  absl::StatusOr<std::vector<Tensor>> after = (*executable)->run({input});
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(after.status().message().find("hip:0 is unusable since a kernel fault"),
            std::string::npos)
      << after.status().message();

  // A fresh device resets the GPU first.
  HipDeviceOptions reset;
  reset.context.resetPrimaryContext = true;
  ASSERT_TRUE(load(kScale, module, reset).ok());
  EXPECT_EQ(state_.resets, 1);
}

TEST_F(HipDeviceTest, AGpuThatIsNotThereIsAnError) {
  HipDeviceOptions options;
  options.ordinal = 5;
  absl::StatusOr<std::unique_ptr<Device>> device = createHipDevice(driver_, options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().message(), "there is no HIP device 5; devices are 0 to 1");
}

TEST_F(HipDeviceTest, DeviceMemoryIsFreedWithTheDevice) {
  std::unique_ptr<Module> module;
  {
    absl::StatusOr<std::shared_ptr<Executable>> executable = load(kScale, module);
    ASSERT_TRUE(executable.ok()) << executable.status();
    std::vector<float> x(12, 1.0f);
    ASSERT_TRUE((*executable)->run({TensorView{ElementType::F32, {3, 4}, x.data()}}).ok());
    EXPECT_FALSE(state_.live.empty());
  }
  device_.reset();
  EXPECT_TRUE(state_.live.empty());
}

} // namespace
} // namespace xs::hip
