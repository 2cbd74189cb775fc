// The C API's HIP path on the recording HIP (RecordingLibamdhip64.cpp, which
// this test links as libamdhip64.so, so libxstitch.so's dlopen finds it): the
// device is hip:0, a gfx942; kDLROCM tensors are read and written where they
// are, launches go to the caller's hipStream_t, only that stream is waited
// for, and outputs xstitch allocates stay on the GPU as kDLROCM tensors.

#include <cstring>

#include "tests/api/CApiTestSupport.h"
#include "tests/api/RecordingHip.h"

namespace xs::apitest {
namespace {

constexpr const char *kScale = R"(
func @scale(%x: f32[R, C]) -> (y: f32[R, C]) {
  %two = constant {value = 2.0} : f32[R, C]
  %y = mul %x, %two
  return %y
}
)";

DLTensor onGpu(float *data, int64_t *shape, DLDeviceType type = kDLROCM) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{type, 0};
  t.ndim = 2;
  t.dtype = kF32;
  t.shape = shape;
  return t;
}

TEST(CApiHipTest, RocmTensorsAreUsedInPlaceOnTheCallersStream) {
  RecordingHipState &gpu = *recording_hip_state();
  Context context = newContext();
  XS_ASSERT_OK(xs_context_check_device(context.get(), "hip:0"));
  ModulePtr module = moduleFromText(kScale);
  ExecutablePtr executable = compile(context.get(), module.get(), "hip");
  ASSERT_NE(executable, nullptr);
  EXPECT_STREQ(xs_executable_device(executable.get()), "hip:0");
  // The code object HIP was given is for the GPU's processor.
  ASSERT_FALSE(gpu.codeObjects.empty());
  EXPECT_NE(gpu.codeObjects.back().find("amdgcn-amd-amdhsa--gfx942"), std::string::npos);

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
  const RecordedHipLaunch &launch = gpu.launches.back();
  EXPECT_EQ(launch.buffers[0], reinterpret_cast<uint64_t>(x));
  EXPECT_EQ(launch.buffers[1], reinterpret_cast<uint64_t>(y));
  EXPECT_EQ(launch.stream, stream);
  EXPECT_EQ(launch.threads % 64, 0u) << "whole wavefronts";
  EXPECT_EQ(gpu.hostToDevice.load(), uploads + 1); // the kernels' argument table only
  EXPECT_EQ(gpu.deviceToHost.load(), 0);
  EXPECT_EQ(gpu.synchronized.size(), syncs);
  EXPECT_EQ(bytesCopiedSoFar(), copied);

  // Outputs xstitch allocates stay on the GPU, as ROCm tensors.
  DLManagedTensor *managed = nullptr;
  args.outputs = nullptr;
  args.num_outputs = 0;
  args.out_managed = &managed;
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  Managed result(managed);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->dl_tensor.device.device_type, kDLROCM);
  EXPECT_EQ(result->dl_tensor.device.device_id, 0);
  EXPECT_EQ(gpu.launches.back().buffers[1], reinterpret_cast<uint64_t>(result->dl_tensor.data));
}

TEST(CApiHipTest, AutoPicksTheAmdGpu) {
  // No NVIDIA driver in this process (the test links none): auto is hip:0.
  Context context = newContext();
  ModulePtr module = moduleFromText(kScale);
  ExecutablePtr executable = compile(context.get(), module.get(), "auto");
  ASSERT_NE(executable, nullptr);
  EXPECT_STREQ(xs_executable_device(executable.get()), "hip:0");
}

TEST(CApiHipTest, HostTensorsAreCopiedAndOtherDevicesRefused) {
  RecordingHipState &gpu = *recording_hip_state();
  Context context = newContext();
  ModulePtr module = moduleFromText(kScale);
  ExecutablePtr executable = compile(context.get(), module.get(), "hip:0");
  ASSERT_NE(executable, nullptr);
  std::vector<float> x(6, 1.0f), y(6);
  std::vector<int64_t> shape = {2, 3};
  std::vector<DLTensor> inputs = {tensorOf(x, shape, kF32)};
  DLTensor output = tensorOf(y, shape, kF32);
  xs_run_args_t args = runArgs(inputs, &output, 1);
  int toHost = gpu.deviceToHost.load();
  XS_ASSERT_OK(xs_executable_run(executable.get(), &args));
  EXPECT_EQ(gpu.deviceToHost.load(), toHost + 1);

  // A CUDA tensor for an executable on hip:0 is another device's.
  alignas(256) static float onDevice[6];
  DLTensor cuda = onGpu(onDevice, shape.data(), kDLCUDA);
  args.inputs = &cuda;
  args.outputs = nullptr;
  args.num_outputs = 0;
  DLManagedTensor *managed = nullptr;
  args.out_managed = &managed;
  std::string error = take(xs_executable_run(executable.get(), &args));
  EXPECT_NE(error.find("input 0 ('x') is on cuda:0 but the executable runs on hip:0"),
            std::string::npos)
      << error;
  EXPECT_EQ(managed, nullptr);
}

} // namespace
} // namespace xs::apitest
