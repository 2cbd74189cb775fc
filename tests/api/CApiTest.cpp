// The C API as an integrator uses it: modules from text and ONNX, compiled
// executables and their descriptions, runs on caller memory (read and
// written in place), allocated outputs handed out as DLManagedTensors,
// strided inputs, older callers' smaller structs, and errors that name what
// is wrong. Links libxstitch.so and includes only its public header.

#include <cmath>
#include <cstring>
#include <fstream>
#include <thread>

#include "tests/api/CApiTestSupport.h"

namespace xs::apitest {
namespace {

/// y = (x + r) * g[broadcast over rows], and the row sums of x.
constexpr const char *kScaledSum = R"(
func @scaled_sum(%x: f32[B, D], %r: f32[B, D], %g: f32[D]) -> (y: f32[B, D], s: f32[B]) {
  %h = add %x, %r
  %g_b = broadcast %g {dims = [1]} : f32[B, D]
  %y = mul %h, %g_b
  %s = reduce_sum %x {dims = [1]}
  return %y, %s
}
)";

struct ScaledSumCase {
  int64_t b, d;
  std::vector<float> x, r, g;
  std::vector<int64_t> xShape, gShape;
  explicit ScaledSumCase(int64_t rows, int64_t cols) : b(rows), d(cols) {
    x.resize(static_cast<size_t>(b * d));
    r.resize(x.size());
    g.resize(static_cast<size_t>(d));
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(i % 17) * 0.25f - 2;
      r[i] = static_cast<float>(i % 5) - 1;
    }
    for (size_t j = 0; j < g.size(); ++j)
      g[j] = 0.5f + static_cast<float>(j);
    xShape = {b, d};
    gShape = {d};
  }
  std::vector<DLTensor> inputs() {
    return {tensorOf(x, xShape, kF32), tensorOf(r, xShape, kF32), tensorOf(g, gShape, kF32)};
  }
  float y(int64_t i, int64_t j) const {
    size_t k = static_cast<size_t>(i * d + j);
    return (x[k] + r[k]) * g[static_cast<size_t>(j)];
  }
  float s(int64_t i) const {
    float sum = 0;
    for (int64_t j = 0; j < d; ++j)
      sum += x[static_cast<size_t>(i * d + j)];
    return sum;
  }
};

class CApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    context_ = newContext();
    module_ = moduleFromText(kScaledSum);
    ASSERT_NE(module_, nullptr);
    executable_ = compile(context_.get(), module_.get());
    ASSERT_NE(executable_, nullptr);
  }
  Context context_;
  ModulePtr module_;
  ExecutablePtr executable_;
};

TEST(CApiVersionTest, TheLibraryIsTheHeadersVersion) {
  EXPECT_STREQ(xs_version(), XS_VERSION_STRING);
  EXPECT_EQ(XS_VERSION_NUMBER,
            XS_VERSION_MAJOR * 10000 + XS_VERSION_MINOR * 100 + XS_VERSION_PATCH);
  EXPECT_EQ(xs_status_code(nullptr), XS_STATUS_OK);
  EXPECT_STREQ(xs_status_message(nullptr), "");
  xs_status_free(nullptr);
}

TEST_F(CApiTest, DescribesInputsOutputsAndDimSymbols) {
  EXPECT_STREQ(xs_executable_device(executable_.get()), "cpu");
  EXPECT_STREQ(xs_executable_function(executable_.get()), "scaled_sum");
  ASSERT_EQ(xs_executable_input_count(executable_.get()), 3u);
  ASSERT_EQ(xs_executable_output_count(executable_.get()), 2u);
  xs_tensor_desc_t desc;
  xs_tensor_desc_init(&desc);
  XS_ASSERT_OK(xs_executable_input_desc(executable_.get(), 0, &desc));
  EXPECT_STREQ(desc.name, "x");
  EXPECT_EQ(desc.dtype.code, kDLFloat);
  EXPECT_EQ(desc.dtype.bits, 32);
  ASSERT_EQ(desc.ndim, 2);
  EXPECT_STREQ(desc.dims[0].expr, "B");
  EXPECT_EQ(desc.dims[0].size, -1);
  EXPECT_STREQ(desc.dims[1].expr, "D");
  XS_ASSERT_OK(xs_executable_output_desc(executable_.get(), 1, &desc));
  EXPECT_STREQ(desc.name, "s");
  ASSERT_EQ(desc.ndim, 1);
  EXPECT_STREQ(desc.dims[0].expr, "B");
  ASSERT_EQ(xs_executable_dim_symbol_count(executable_.get()), 2u);
  EXPECT_STREQ(xs_executable_dim_symbol(executable_.get(), 0), "B");
  EXPECT_STREQ(xs_executable_dim_symbol(executable_.get(), 1), "D");
  EXPECT_EQ(xs_executable_dim_symbol(executable_.get(), 2), nullptr);
  std::string error = take(xs_executable_input_desc(executable_.get(), 3, &desc));
  EXPECT_NE(error.find("OUT_OF_RANGE"), std::string::npos) << error;
}

TEST_F(CApiTest, WritesIntoTheCallersOutputsWithoutCopies) {
  for (auto [b, d] : {std::pair<int64_t, int64_t>{3, 7}, {64, 1000}, {1, 1}}) {
    ScaledSumCase c(b, d);
    std::vector<DLTensor> inputs = c.inputs();
    std::vector<float> y(c.x.size(), -1), s(static_cast<size_t>(b), -1);
    std::vector<int64_t> sShape = {b};
    DLTensor outputs[2] = {tensorOf(y, c.xShape, kF32), tensorOf(s, sShape, kF32)};
    xs_run_args_t args = runArgs(inputs, outputs, 2);
    uint64_t copiedBefore = bytesCopiedSoFar();
    XS_ASSERT_OK(xs_executable_run(executable_.get(), &args));
    EXPECT_EQ(bytesCopiedSoFar(), copiedBefore) << "a run on compact, aligned tensors copied";
    for (int64_t i = 0; i < b; ++i) {
      for (int64_t j = 0; j < d; ++j)
        ASSERT_FLOAT_EQ(y[static_cast<size_t>(i * d + j)], c.y(i, j)) << i << "," << j;
      ASSERT_NEAR(s[static_cast<size_t>(i)], c.s(i), 1e-3 * d) << i;
    }
  }
}

TEST_F(CApiTest, HandsOutAllocatedOutputsAsManagedTensors) {
  ScaledSumCase c(5, 33);
  std::vector<DLTensor> inputs = c.inputs();
  DLManagedTensor *managed[2] = {nullptr, nullptr};
  xs_run_args_t args = runArgs(inputs, managed);
  XS_ASSERT_OK(xs_executable_run(executable_.get(), &args));
  Managed y(managed[0]), s(managed[1]);
  ASSERT_NE(y, nullptr);
  ASSERT_NE(s, nullptr);
  const DLTensor &yt = y->dl_tensor;
  EXPECT_EQ(yt.device.device_type, kDLCPU);
  EXPECT_EQ(yt.dtype.code, kDLFloat);
  ASSERT_EQ(yt.ndim, 2);
  EXPECT_EQ(yt.shape[0], 5);
  EXPECT_EQ(yt.shape[1], 33);
  EXPECT_EQ(yt.strides, nullptr);
  const float *yd = static_cast<const float *>(yt.data);
  EXPECT_FLOAT_EQ(yd[2 * 33 + 4], c.y(2, 4));
  EXPECT_NEAR(static_cast<const float *>(s->dl_tensor.data)[4], c.s(4), 1e-3);

  // A shared reference outlives the first.
  DLManagedTensor *shared = nullptr;
  XS_ASSERT_OK(xs_tensor_share(y.get(), &shared));
  Managed second(shared);
  EXPECT_EQ(second->dl_tensor.data, yt.data);
  y.reset();
  EXPECT_FLOAT_EQ(static_cast<const float *>(second->dl_tensor.data)[2 * 33 + 4], c.y(2, 4));
  // Only xstitch's tensors can be shared.
  DLManagedTensor foreign{};
  std::string error = take(xs_tensor_share(&foreign, &shared));
  EXPECT_NE(error.find("not allocated by xstitch"), std::string::npos) << error;

  // Some outputs provided, the others allocated.
  std::vector<float> yBuffer(c.x.size());
  DLTensor outputs[2] = {tensorOf(yBuffer, c.xShape, kF32), DLTensor{}};
  args.outputs = outputs;
  args.num_outputs = 2;
  XS_ASSERT_OK(xs_executable_run(executable_.get(), &args));
  EXPECT_EQ(managed[0], nullptr);
  ASSERT_NE(managed[1], nullptr);
  Managed sOnly(managed[1]);
  EXPECT_FLOAT_EQ(yBuffer[3 * 33 + 1], c.y(3, 1));
}

TEST_F(CApiTest, StridedInputsAreReadThroughACompactCopy) {
  // x given as the transpose of a [D, B] array: strides {1, B}.
  ScaledSumCase c(4, 6);
  std::vector<float> xt(c.x.size());
  for (int64_t i = 0; i < c.b; ++i)
    for (int64_t j = 0; j < c.d; ++j)
      xt[static_cast<size_t>(j * c.b + i)] = c.x[static_cast<size_t>(i * c.d + j)];
  std::vector<DLTensor> inputs = c.inputs();
  int64_t strides[2] = {1, c.b};
  inputs[0].data = xt.data();
  inputs[0].strides = strides;
  std::vector<float> y(c.x.size()), s(static_cast<size_t>(c.b));
  std::vector<int64_t> sShape = {c.b};
  DLTensor outputs[2] = {tensorOf(y, c.xShape, kF32), tensorOf(s, sShape, kF32)};
  xs_run_args_t args = runArgs(inputs, outputs, 2);
  uint64_t copiedBefore = bytesCopiedSoFar();
  XS_ASSERT_OK(xs_executable_run(executable_.get(), &args));
  EXPECT_EQ(bytesCopiedSoFar() - copiedBefore, c.x.size() * sizeof(float));
  EXPECT_FLOAT_EQ(y[1 * 6 + 5], c.y(1, 5));
  EXPECT_NEAR(s[3], c.s(3), 1e-4);
  // Strided outputs are refused: xstitch writes compact ones.
  outputs[0].strides = strides;
  std::string error = take(xs_executable_run(executable_.get(), &args));
  EXPECT_NE(error.find("output 0 ('y') has strides"), std::string::npos) << error;
}

TEST_F(CApiTest, CompilesReportTheirStagesAndRunsTheirSteps) {
  xs_compile_info_t info;
  xs_compile_info_init(&info);
  XS_ASSERT_OK(xs_executable_compile_info(executable_.get(), &info));
  EXPECT_GT(info.compile_seconds, 0);
  EXPECT_GE(info.kernel_count, 1);
  // A fresh context compiles afresh; its stages add up to at most the whole.
  Context fresh = newContext();
  ExecutablePtr again = compile(fresh.get(), module_.get());
  XS_ASSERT_OK(xs_executable_compile_info(again.get(), &info));
  EXPECT_EQ(info.cache_hit, 0);
  EXPECT_GT(info.llvm_seconds, 0);
  EXPECT_LE(info.plan_seconds + info.llvm_seconds + info.load_seconds,
            info.compile_seconds * 1.001);
  ExecutablePtr cached = compile(fresh.get(), module_.get());
  XS_ASSERT_OK(xs_executable_compile_info(cached.get(), &info));
  EXPECT_EQ(info.cache_hit, 1);

  struct Steps {
    std::vector<std::string> names;
    double seconds = 0;
  } steps;
  ScaledSumCase c(4, 8);
  std::vector<DLTensor> inputs = c.inputs();
  DLManagedTensor *managed[2] = {};
  xs_run_args_t args = runArgs(inputs, managed);
  args.step_timer = [](void *data, const char *step, double seconds) {
    static_cast<Steps *>(data)->names.push_back(step);
    static_cast<Steps *>(data)->seconds += seconds;
  };
  args.step_timer_data = &steps;
  XS_ASSERT_OK(xs_executable_run(executable_.get(), &args));
  Managed y(managed[0]), s(managed[1]);
  XS_ASSERT_OK(xs_executable_compile_info(executable_.get(), &info));
  EXPECT_EQ(steps.names.size(), static_cast<size_t>(info.kernel_count));
  EXPECT_GT(steps.seconds, 0);
}

TEST_F(CApiTest, InconsistentShapesNameTheDimAndTheInputs) {
  ScaledSumCase c(3, 7);
  std::vector<DLTensor> inputs = c.inputs();
  int64_t wrong[2] = {3, 8};
  inputs[1].shape = wrong;
  DLManagedTensor *managed[2] = {};
  xs_run_args_t args = runArgs(inputs, managed);
  std::string error = take(xs_executable_run(executable_.get(), &args));
  EXPECT_NE(error.find("INVALID_ARGUMENT"), std::string::npos) << error;
  EXPECT_NE(error.find("%x"), std::string::npos) << error;
  EXPECT_NE(error.find("%r"), std::string::npos) << error;
  EXPECT_NE(error.find("D"), std::string::npos) << error;
  EXPECT_EQ(managed[0], nullptr);

  // The output shapes follow the inputs'.
  inputs = c.inputs();
  int64_t shapes[3] = {};
  size_t count = 0;
  XS_ASSERT_OK(
      xs_executable_output_shapes(executable_.get(), inputs.data(), 3, nullptr, 0, &count));
  EXPECT_EQ(count, 3u);
  XS_ASSERT_OK(xs_executable_output_shapes(executable_.get(), inputs.data(), 3, shapes, 3, &count));
  EXPECT_EQ(shapes[0], 3);
  EXPECT_EQ(shapes[1], 7);
  EXPECT_EQ(shapes[2], 3);
}

TEST_F(CApiTest, WrongTypesRanksAndDevicesAreErrors) {
  ScaledSumCase c(2, 3);
  std::vector<DLTensor> inputs = c.inputs();
  DLManagedTensor *managed[2] = {};
  xs_run_args_t args = runArgs(inputs, managed);
  auto runError = [&] {
    args.inputs = inputs.data();
    return take(xs_executable_run(executable_.get(), &args));
  };

  inputs[2].dtype = kF64;
  std::string error = runError();
  EXPECT_NE(error.find("input 2 ('g') is float64 but the executable takes float32"),
            std::string::npos)
      << error;
  inputs = c.inputs();
  inputs[2].ndim = 2;
  inputs[2].shape = c.xShape.data();
  error = runError();
  EXPECT_NE(error.find("input 2 ('g') has rank 2"), std::string::npos) << error;
  inputs = c.inputs();
  inputs[0].device = DLDevice{kDLCUDA, 0};
  error = runError();
  EXPECT_NE(error.find("input 0 ('x') is on cuda:0 but the executable runs on cpu"),
            std::string::npos)
      << error;
  inputs = c.inputs();
  args.num_inputs = 2;
  error = runError();
  EXPECT_NE(error.find("takes 3 inputs but 2 were given"), std::string::npos) << error;
  args.num_inputs = 3;
  args.out_managed = nullptr;
  error = runError();
  EXPECT_NE(error.find("out_managed is NULL"), std::string::npos) << error;
}

TEST_F(CApiTest, OlderCallersSmallerStructsGetTheDefaults) {
  // What a caller built against a header whose structs ended earlier passes.
  struct OldCompileOptions {
    size_t struct_size;
    const char *device;
  } old{sizeof(OldCompileOptions), "cpu"};
  xs_executable_t *executable = nullptr;
  XS_ASSERT_OK(xs_executable_compile(context_.get(), module_.get(),
                                     reinterpret_cast<const xs_compile_options_t *>(&old),
                                     &executable));
  ExecutablePtr owned(executable);
  struct OldRunArgs {
    size_t struct_size;
    const DLTensor *inputs;
    size_t num_inputs;
    const DLTensor *outputs;
    size_t num_outputs;
    DLManagedTensor **out_managed;
  };
  ScaledSumCase c(2, 9);
  std::vector<DLTensor> inputs = c.inputs();
  DLManagedTensor *managed[2] = {};
  OldRunArgs args{sizeof(OldRunArgs), inputs.data(), 3, nullptr, 0, managed};
  XS_ASSERT_OK(xs_executable_run(executable, reinterpret_cast<const xs_run_args_t *>(&args)));
  Managed y(managed[0]), s(managed[1]);
  EXPECT_FLOAT_EQ(static_cast<const float *>(y->dl_tensor.data)[9 + 8], c.y(1, 8));
  // A description struct that ends before `dims` gets no dims written.
  struct OldDesc {
    size_t struct_size;
    const char *name;
  } desc{sizeof(OldDesc), nullptr};
  XS_ASSERT_OK(
      xs_executable_input_desc(executable, 1, reinterpret_cast<xs_tensor_desc_t *>(&desc)));
  EXPECT_STREQ(desc.name, "r");
  struct OldStats {
    size_t struct_size;
    uint64_t compilations;
  } stats{sizeof(OldStats), 0};
  XS_ASSERT_OK(xs_stats_get(reinterpret_cast<xs_stats_t *>(&stats)));
  EXPECT_GE(stats.compilations, 1u);
}

TEST_F(CApiTest, TheCompileCacheAnswersARepeatedCompile) {
  xs_stats_t before, after;
  xs_stats_init(&before);
  xs_stats_init(&after);
  XS_ASSERT_OK(xs_stats_get(&before));
  ExecutablePtr again = compile(context_.get(), module_.get());
  XS_ASSERT_OK(xs_stats_get(&after));
  EXPECT_EQ(after.compilations, before.compilations);
  EXPECT_EQ(after.compile_cache_hits, before.compile_cache_hits + 1);
  // Another context has a cache of its own.
  Context other = newContext();
  ExecutablePtr elsewhere = compile(other.get(), module_.get());
  XS_ASSERT_OK(xs_stats_get(&after));
  EXPECT_EQ(after.compilations, before.compilations + 1);
}

/// Eight threads run one executable at once, each on shapes of its own, and
/// check every result.
void runOnManyThreadsAtOnce(xs_executable_t *executable) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ScaledSumCase c(3 + t, 40 + 7 * t);
      std::vector<DLTensor> inputs = c.inputs();
      for (int iteration = 0; iteration < 20; ++iteration) {
        DLManagedTensor *managed[2] = {};
        xs_run_args_t args = runArgs(inputs, managed);
        std::string error = take(xs_executable_run(executable, &args));
        if (!error.empty()) {
          failures[static_cast<size_t>(t)] = error;
          return;
        }
        Managed y(managed[0]), s(managed[1]);
        const float *yd = static_cast<const float *>(y->dl_tensor.data);
        if (y->dl_tensor.shape[0] != c.b || yd[c.d + 3] != c.y(1, 3)) {
          failures[static_cast<size_t>(t)] = "wrong result";
          return;
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[static_cast<size_t>(t)], "") << "thread " << t;
}

TEST_F(CApiTest, OneExecutableRunsOnManyThreadsAtOnce) {
  runOnManyThreadsAtOnce(executable_.get());
}

// Kernels on the callers' threads (one worker): what ThreadSanitizer checks
// (scripts/test.sh --tsan), since Debian's TBB is not instrumented.
TEST_F(CApiTest, OneExecutableRunsOnManyThreadsAtOnceSerialKernels) {
  xs_context_options_t options;
  xs_context_options_init(&options);
  options.worker_threads = 1;
  xs_context_t *serial = nullptr;
  XS_ASSERT_OK(xs_context_create(&options, &serial));
  Context context(serial);
  ExecutablePtr executable = compile(context.get(), module_.get());
  ASSERT_NE(executable, nullptr);
  runOnManyThreadsAtOnce(executable.get());
}

TEST(CApiModuleTest, ParseErrorsLocateTheProblem) {
  const char text[] =
      "func @f(%x: f32[N]) -> (y: f32[N]) {\n  %y = frobnicate %x\n  return %y\n}\n";
  xs_module_options_t options;
  xs_module_options_init(&options);
  options.source_name = "model.xs";
  xs_module_t *module = nullptr;
  std::string error = take(xs_module_create_from_bytes(text, sizeof(text) - 1, &options, &module));
  EXPECT_EQ(module, nullptr);
  EXPECT_NE(error.find("INVALID_ARGUMENT: model.xs:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("frobnicate"), std::string::npos) << error;

  error = take(xs_module_create_from_file("/nonexistent/model.onnx", nullptr, &module));
  EXPECT_NE(error.find("NOT_FOUND: /nonexistent/model.onnx: error: cannot open"), std::string::npos)
      << error;
  // Bytes that claim to be ONNX and are not.
  options.format = XS_MODULE_FORMAT_ONNX;
  error = take(xs_module_create_from_bytes("\x08\x07garbage", 9, &options, &module));
  EXPECT_NE(error.find("model.xs"), std::string::npos) << error;
}

TEST(CApiModuleTest, ModulesListTheirFunctionsAndExecutablesChooseOne) {
  const std::string text = R"(
func @twice(%x: f32[N]) -> (y: f32[N]) {
  %y = add %x, %x
  return %y
}
func @square(%x: f32[N]) -> (y: f32[N]) {
  %y = mul %x, %x
  return %y
}
)";
  ModulePtr module = moduleFromText(text);
  ASSERT_EQ(xs_module_function_count(module.get()), 2u);
  EXPECT_STREQ(xs_module_function_name(module.get(), 0), "twice");
  EXPECT_STREQ(xs_module_function_name(module.get(), 1), "square");
  EXPECT_EQ(xs_module_function_name(module.get(), 2), nullptr);
  Context context = newContext();
  xs_executable_t *executable = nullptr;
  std::string error =
      take(xs_executable_compile(context.get(), module.get(), nullptr, &executable));
  EXPECT_NE(error.find("several functions (@twice, @square)"), std::string::npos) << error;
  xs_compile_options_t options;
  xs_compile_options_init(&options);
  options.function = "cube";
  error = take(xs_executable_compile(context.get(), module.get(), &options, &executable));
  EXPECT_NE(error.find("NOT_FOUND: the module has no function @cube"), std::string::npos) << error;
  options.function = "square";
  XS_ASSERT_OK(xs_executable_compile(context.get(), module.get(), &options, &executable));
  ExecutablePtr square(executable);
  // The module may go; the executable stays usable.
  module.reset();
  std::vector<float> x = {1, 2, 3}, y(3);
  std::vector<int64_t> shape = {3};
  std::vector<DLTensor> inputs = {tensorOf(x, shape, kF32)};
  DLTensor out = tensorOf(y, shape, kF32);
  xs_run_args_t args = runArgs(inputs, &out, 1);
  XS_ASSERT_OK(xs_executable_run(square.get(), &args));
  EXPECT_EQ(y, (std::vector<float>{1, 4, 9}));
}

// Inputs the reference interpreter refuses: the run is an error naming the
// op and the index, on the CPU and in the NVIDIA simulation, and no output
// is handed out.
TEST(CApiDataErrorTest, AnIndexOutOfRangeIsAnErrorNamingTheOp) {
  const std::string text = R"(
func @pick(%x: f32[N], %i: i64[M]) -> (y: f32[M]) {
  %y = gather %x, %i {dim = 0}
  return %y
}
)";
  Context context = newContext();
  ModulePtr module = moduleFromText(text);
  for (const char *device : {"cpu", "nvptx-sim"}) {
    ExecutablePtr executable = compile(context.get(), module.get(), device);
    ASSERT_NE(executable, nullptr) << device;
    std::vector<float> x = {1, 2, 3};
    std::vector<int64_t> index = {0, 5, -1, 2}, xShape = {3}, indexShape = {4};
    std::vector<DLTensor> inputs = {tensorOf(x, xShape, kF32), tensorOf(index, indexShape, kI64)};
    DLManagedTensor *managed = nullptr;
    xs_run_args_t args = runArgs(inputs, &managed);
    xs_status_t status = xs_executable_run(executable.get(), &args);
    ASSERT_NE(status, nullptr) << device;
    EXPECT_EQ(xs_status_code(status), XS_STATUS_INVALID_ARGUMENT) << device;
    std::string message = take(status);
    EXPECT_NE(message.find("%y = gather in kernel k0_gather: index 5 is out of range for a dim of "
                           "size 3 (valid: -3 to 2)"),
              std::string::npos)
        << device << ": " << message;
    EXPECT_EQ(managed, nullptr) << device;
    // In range (negative from the end), the same executable runs.
    index = {0, 2, -1, -3};
    XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
    ASSERT_NE(managed, nullptr);
    const float *y = static_cast<const float *>(managed->dl_tensor.data);
    EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{1, 3, 3, 1})) << device;
    managed->deleter(managed);
  }
}

TEST(CApiDataErrorTest, AnIntegerDivisionByZeroIsAnErrorNamingTheOp) {
  Context context = newContext();
  ModulePtr module = moduleFromText(R"(
func @ratio(%a: i64[N], %b: i64[N]) -> (q: i64[N]) {
  %q = div %a, %b
  return %q
}
)");
  for (const char *device : {"cpu", "nvptx-sim"}) {
    ExecutablePtr executable = compile(context.get(), module.get(), device);
    ASSERT_NE(executable, nullptr) << device;
    std::vector<int64_t> a = {7, 8, 9, 10}, b = {1, 0, 2, 0}, q(4), shape = {4};
    std::vector<DLTensor> inputs = {tensorOf(a, shape, kI64), tensorOf(b, shape, kI64)};
    DLTensor out = tensorOf(q, shape, kI64);
    xs_run_args_t args = runArgs(inputs, &out, 1);
    xs_status_t status = xs_executable_run(executable.get(), &args);
    ASSERT_NE(status, nullptr) << device << ": the run returned quotients";
    EXPECT_EQ(xs_status_code(status), XS_STATUS_INVALID_ARGUMENT) << device;
    std::string message = take(status);
    EXPECT_NE(message.find("%q = div in kernel k0_div: integer division by zero"),
              std::string::npos)
        << device << ": " << message;
    b = {1, 3, 2, -4};
    XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
    EXPECT_EQ(q, (std::vector<int64_t>{7, 2, 4, -2})) << device;
  }
}

TEST(CApiDeviceTest, DevicesAreCheckedByName) {
  Context context = newContext();
  XS_ASSERT_OK(xs_context_check_device(context.get(), "cpu"));
  XS_ASSERT_OK(xs_context_check_device(context.get(), "nvptx-sim:sm_80"));
  std::string error = take(xs_context_check_device(context.get(), "tpu"));
  EXPECT_NE(error.find("unknown device 'tpu'"), std::string::npos) << error;
}

TEST(CApiDeviceTest, TheNvptxSimulationRunsThroughTheApi) {
  Context context = newContext();
  ModulePtr module = moduleFromText(kScaledSum);
  ExecutablePtr executable = compile(context.get(), module.get(), "nvptx-sim");
  ASSERT_NE(executable, nullptr);
  EXPECT_STREQ(xs_executable_device(executable.get()), "nvptx-sim");
  ScaledSumCase c(3, 37);
  std::vector<DLTensor> inputs = c.inputs();
  std::vector<float> y(c.x.size()), s(3);
  std::vector<int64_t> sShape = {3};
  DLTensor outputs[2] = {tensorOf(y, c.xShape, kF32), tensorOf(s, sShape, kF32)};
  xs_run_args_t args = runArgs(inputs, outputs, 2);
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  EXPECT_FLOAT_EQ(y[2 * 37 + 36], c.y(2, 36));
  EXPECT_NEAR(s[1], c.s(1), 1e-3);
}

} // namespace
} // namespace xs::apitest
