#ifndef XSTITCH_TESTS_UNIT_CUDADEVICEFIXTURE_H
#define XSTITCH_TESTS_UNIT_CUDADEVICEFIXTURE_H

// The fixture of the CUDA device's tests (CudaDeviceTest.cpp,
// CudaDeviceErrorsTest.cpp): programs planned and compiled to PTX for an
// H200, loaded on the recording driver (RecordingCudaDriver.h) with the
// recording cuBLASLt.

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
#include "tests/unit/RecordingCudaDriver.h"
#include "transforms/Pass.h"
#include "gtest/gtest.h"

namespace xs::cuda::testing {

class CudaDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    recordingGpu = &state_;
    driver_ = recordingDriver();
  }
  void TearDown() override {
    device_.reset();
    recordingGpu = nullptr;
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

  RecordingGpu state_;
  CudaDriver driver_;
  std::unique_ptr<Device> device_;
};

inline std::vector<float> floats(const Tensor &t) {
  const float *data = static_cast<const float *>(t.data());
  return std::vector<float>(data, data + t.view().numElements());
}

/// One kernel over x and y, the constant folded into it.
inline constexpr const char *kScale = R"(
func @scale(%x: f32[R, C]) -> (y: f32[R, C]) {
  %two = constant {value = 2.0} : f32[R, C]
  %y = mul %x, %two
  return %y
}
)";

/// A "kernel" that copies its R x C input to its output.
inline void copyFirstBufferToSecond(const RecordedLaunch &launch) {
  std::memcpy(reinterpret_cast<void *>(launch.buffers[1]),
              reinterpret_cast<const void *>(launch.buffers[0]),
              static_cast<size_t>(launch.dims[0] * launch.dims[1]) * sizeof(float));
}

/// A softmax over rows of any length: stitched rows, or split ones.
inline constexpr const char *kRowSoftmax = R"(
func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}
)";

/// A reshape (a view) feeding a dot: a view and a library step.
inline constexpr const char *kProject = R"(
func @project(%a: f32[6], %b: f32[3, N]) -> (p: f32[2, N]) {
  %m = reshape %a : f32[2, 3]
  %p = dot %m, %b
  return %p
}
)";

} // namespace xs::cuda::testing

#endif // XSTITCH_TESTS_UNIT_CUDADEVICEFIXTURE_H
