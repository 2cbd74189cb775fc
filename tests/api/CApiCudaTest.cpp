// The C API's CUDA path on the recording driver (RecordingLibcuda.cpp, which
// this test links as libcuda.so.1, so libxstitch.so's dlopen finds it):
// tensors on the GPU are read and written where they are, launches go to
// the caller's stream, only that stream is waited for, and outputs xstitch
// allocates stay on the GPU.

#include <cstring>

#include "tests/api/CApiTestSupport.h"
#include "tests/api/RecordingCuda.h"

namespace xs::apitest {
namespace {

constexpr const char *kScale = R"(
func @scale(%x: f32[R, C]) -> (y: f32[R, C]) {
  %two = constant {value = 2.0} : f32[R, C]
  %y = mul %x, %two
  return %y
}
)";

DLTensor onGpu(float *data, int64_t *shape) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{kDLCUDA, 0};
  t.ndim = 2;
  t.dtype = kF32;
  t.shape = shape;
  return t;
}

TEST(CApiCudaTest, GpuTensorsAreUsedInPlaceOnTheCallersStream) {
  RecordingCudaState &gpu = *recording_cuda_state();
  Context context = newContext();
  XS_ASSERT_OK(xs_context_check_device(context.get(), "cuda:0"));
  ModulePtr module = moduleFromText(kScale);
  ExecutablePtr executable = compile(context.get(), module.get(), "cuda");
  ASSERT_NE(executable, nullptr);
  EXPECT_STREQ(xs_executable_device(executable.get()), "cuda:0");

  // "Device" memory of the caller's (the recording driver's is host memory).
  alignas(256) static float x[3 * 5], y[3 * 5];
  int64_t shape[2] = {3, 5};
  std::vector<DLTensor> inputs = {onGpu(x, shape)};
  DLTensor output = onGpu(y, shape);
  void *stream = reinterpret_cast<void *>(0x77);
  xs_run_args_t args = runArgs(inputs, &output, 1);
  args.stream = stream;
  int uploads = gpu.hostToDevice.load();
  size_t launches = gpu.launches.size(), syncs = gpu.synchronized.size();
  uint64_t copied = bytesCopiedSoFar();
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  ASSERT_EQ(gpu.launches.size(), launches + 1);
  const RecordedCudaLaunch &launch = gpu.launches.back();
  EXPECT_EQ(launch.buffers[0], reinterpret_cast<uint64_t>(x));
  EXPECT_EQ(launch.buffers[1], reinterpret_cast<uint64_t>(y));
  EXPECT_EQ(launch.stream, stream);
  EXPECT_EQ(gpu.hostToDevice.load(), uploads + 1); // the kernels' argument table only
  EXPECT_EQ(gpu.deviceToHost.load(), 0);
  EXPECT_EQ(gpu.deviceToDevice.load(), 0);
  // Every tensor on the GPU and the caller's stream given: the run returned
  // once queued, without waiting for any stream.
  EXPECT_EQ(gpu.synchronized.size(), syncs);
  EXPECT_EQ(bytesCopiedSoFar(), copied);

  // Outputs xstitch allocates stay on the GPU.
  DLManagedTensor *managed = nullptr;
  args.outputs = nullptr;
  args.num_outputs = 0;
  args.out_managed = &managed;
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  Managed result(managed);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(result->dl_tensor.device.device_id, 0);
  EXPECT_EQ(gpu.launches.back().buffers[1], reinterpret_cast<uint64_t>(result->dl_tensor.data));
  EXPECT_EQ(gpu.deviceToHost.load(), 0);
  EXPECT_EQ(bytesCopiedSoFar(), copied);
}

TEST(CApiCudaTest, HostTensorsAreCopiedInAndOut) {
  RecordingCudaState &gpu = *recording_cuda_state();
  Context context = newContext();
  ModulePtr module = moduleFromText(kScale);
  ExecutablePtr executable = compile(context.get(), module.get(), "cuda:0");
  ASSERT_NE(executable, nullptr);
  std::vector<float> x(6, 1.0f), y(6);
  std::vector<int64_t> shape = {2, 3};
  std::vector<DLTensor> inputs = {tensorOf(x, shape, kF32)};
  DLTensor output = tensorOf(y, shape, kF32);
  xs_run_args_t args = runArgs(inputs, &output, 1);
  int toHost = gpu.deviceToHost.load();
  uint64_t copied = bytesCopiedSoFar();
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  EXPECT_EQ(gpu.deviceToHost.load(), toHost + 1);
  EXPECT_EQ(bytesCopiedSoFar() - copied, 2 * 6 * sizeof(float));

  // Mixed sides, another GPU, strided GPU tensors: errors that say so.
  alignas(256) static float onDevice[6];
  DLTensor device = onGpu(onDevice, shape.data());
  args.outputs = &device;
  std::string error = take(xs_executable_run(executable.get(), &args));
  EXPECT_NE(error.find("output 0 ('y') is on cuda:0 but the inputs are in host memory"),
            std::string::npos)
      << error;
  device.device.device_id = 1;
  args.inputs = &device;
  args.outputs = nullptr;
  args.num_outputs = 0;
  DLManagedTensor *managed = nullptr;
  args.out_managed = &managed;
  error = take(xs_executable_run(executable.get(), &args));
  EXPECT_NE(error.find("input 0 ('x') is on cuda:1 but the executable runs on cuda:0"),
            std::string::npos)
      << error;
  device.device.device_id = 0;
  int64_t strides[2] = {1, 2};
  device.strides = strides;
  error = take(xs_executable_run(executable.get(), &args));
  EXPECT_NE(error.find("not compact"), std::string::npos) << error;
  EXPECT_EQ(managed, nullptr);
}

} // namespace
} // namespace xs::apitest
