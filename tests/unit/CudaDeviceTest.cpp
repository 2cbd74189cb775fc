// The CUDA device's host side on a recording driver (RecordingCudaDriver.h):
// the PTX and the symbols it loads, the launch configurations (grid,
// threads, dynamic shared memory, the dims and buffer tables the kernels
// read), phases and cooperative launches, copies in and out, library steps
// (cuBLASLt, the host), device tensors on the caller's stream, timing by
// events. What runs on a GPU is checked on one (the GPU tests). Errors,
// faults and memory given back: CudaDeviceErrorsTest.

#include "tests/unit/CudaDeviceFixture.h"

namespace xs::cuda::testing {
namespace {

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

} // namespace
} // namespace xs::cuda::testing
