// The CUDA device's errors on a recording driver (RecordingCudaDriver.h):
// kernels that fault (named with --sync-launches; a sticky fault told apart
// from out of memory, and the reset context after it), status words the
// kernels raise, a driver older than the PTX, refused PTX, missing kernels
// and GPUs, input errors, device memory given back with the device and after
// every failed allocation.

#include "tests/unit/CudaDeviceFixture.h"

namespace xs::cuda::testing {
namespace {

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
} // namespace xs::cuda::testing
