#include "runtime/cuda/CudaGpuDriver.h"

#include <cstdio>
#include <optional>

#include "backends/common/KernelABI.h"
#include "ir/Diagnostics.h"
#include "runtime/cuda/CudaMatmul.h"

namespace xs::cuda {

namespace {

using gpu::ContextHandle;
using gpu::DevicePointer;
using gpu::EventHandle;
using gpu::FunctionHandle;
using gpu::GpuCall;
using gpu::ModuleHandle;
using gpu::StreamHandle;

// CUjit_option, CUfunction_attribute, CUevent_flags, CUstream_flags and
// CUresult values (cuda.h); stable across driver versions.
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferBytes = 6;
constexpr int kFuncSharedSizeBytes = 1;
constexpr int kFuncMaxDynamicSharedSizeBytes = 8;
constexpr unsigned kEventDisableTiming = 2;
constexpr unsigned kStreamNonBlocking = 1;
constexpr CUresult kNotReady = 600;

/// The PTX ISA a module declares (`.version 7.8`), as 10 * major + minor;
/// nullopt without the directive.
std::optional<int> ptxIsaOf(const std::string &ptx) {
  size_t at = ptx.find(".version ");
  if (at == std::string::npos)
    return std::nullopt;
  int major = 0, minor = 0;
  if (std::sscanf(ptx.c_str() + at + 9, "%d.%d", &major, &minor) != 2)
    return std::nullopt;
  return 10 * major + minor;
}

/// The oldest CUDA version (as cuDriverGetVersion reports it: 1000 * major
/// + 10 * minor) whose driver compiles PTX ISA `isa` (10 * major + minor),
/// from the PTX ISA release notes.
int cudaVersionForPtxIsa(int isa) {
  if (isa <= 60)
    return 9000;
  static const std::pair<int, int> kIsa6[] = {
      {61, 9010}, {62, 9020}, {63, 10000}, {64, 10010}, {65, 10020}};
  for (auto [version, cuda] : kIsa6)
    if (isa <= version)
      return cuda;
  if (isa < 80)
    return 11000 + 10 * (isa - 70); // 7.Y: CUDA 11.Y
  if (isa <= 85)
    return 12000 + 10 * (isa - 80); // 8.Y: CUDA 12.Y up to 8.5
  if (isa <= 88)
    return 12070 + 10 * (isa - 86); // 8.6 to 8.8: CUDA 12.7 to 12.9
  return 13000 + 10 * (isa - 90);   // 9.Y: CUDA 13.Y
}

std::string cudaVersionText(int version) {
  return strCat(version / 1000, ".", (version % 1000) / 10);
}

CUdeviceptr cu(DevicePointer pointer) { return static_cast<CUdeviceptr>(pointer); }
CUstream cu(StreamHandle stream) { return static_cast<CUstream>(stream); }
CUevent cuEvent(EventHandle event) { return static_cast<CUevent>(event); }
CUfunction cuFunction(FunctionHandle function) { return static_cast<CUfunction>(function); }

class CudaGpuDriver : public gpu::GpuDriver {
public:
  CudaGpuDriver(const CudaDriver &driver, FindCublasLt findCublasLt)
      : d_(driver), findCublasLt_(findCublasLt) {}

  std::string_view platform() const override { return "cuda"; }
  std::string_view vendor() const override { return "NVIDIA"; }
  std::string_view codeFormat() const override { return "ptx"; }
  std::string_view codeName() const override { return "PTX"; }

  absl::Status check(GpuCall call) const override { return d_.check(call.result, call.name); }
  bool isStickyFault(gpu::GpuResult result) const override {
    return CudaDriver::isStickyFault(result);
  }
  bool isNotReady(gpu::GpuResult result) const override { return result == kNotReady; }

  absl::StatusOr<gpu::GpuDeviceInfo> deviceInfo(int ordinal) const override {
    XS_ASSIGN_OR_RETURN(CudaDeviceInfo cuda, d_.deviceInfo(ordinal));
    gpu::GpuDeviceInfo info;
    info.ordinal = cuda.ordinal;
    info.name = cuda.name;
    info.arch = cuda.arch();
    info.multiprocessors = cuda.multiprocessors;
    info.warpSize = cuda.warpSize;
    info.maxThreadsPerBlock = cuda.maxThreadsPerBlock;
    info.sharedBytesPerBlock = cuda.sharedBytesPerBlockOptIn;
    info.cooperativeLaunch = cuda.cooperativeLaunch;
    info.totalMemoryBytes = cuda.totalMemoryBytes;
    return info;
  }

  GpuCall retainContext(int ordinal, bool reset, ContextHandle *context) const override {
    CUdevice device = 0;
    if (CUresult r = d_.cuDeviceGet(&device, ordinal); r != 0)
      return {r, "cuDeviceGet"};
    if (reset)
      if (CUresult r = d_.cuDevicePrimaryCtxReset(device); r != 0)
        return {r, "cuDevicePrimaryCtxReset"};
    CUcontext retained = nullptr;
    CUresult r = d_.cuDevicePrimaryCtxRetain(&retained, device);
    *context = retained;
    return {r, "cuDevicePrimaryCtxRetain"};
  }
  GpuCall releaseContext(int ordinal) const override {
    CUdevice device = 0;
    if (CUresult r = d_.cuDeviceGet(&device, ordinal); r != 0)
      return {r, "cuDeviceGet"};
    return {d_.cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease"};
  }
  GpuCall currentContext(ContextHandle *context) const override {
    CUcontext current = nullptr;
    CUresult r = d_.cuCtxGetCurrent(&current);
    *context = current;
    return {r, "cuCtxGetCurrent"};
  }
  GpuCall setCurrentContext(ContextHandle context) const override {
    return {d_.cuCtxSetCurrent(static_cast<CUcontext>(context)), "cuCtxSetCurrent"};
  }

  // A driver older than the PTX's ISA would refuse it with a bare
  // CUDA_ERROR_UNSUPPORTED_PTX_VERSION: say which driver it needs.
  absl::Status checkCodeObject(const std::string &ptx, const gpu::GpuDeviceInfo &device,
                               std::string_view function) const override {
    std::optional<int> isa = ptxIsaOf(ptx);
    if (!isa)
      return absl::OkStatus();
    int version = 0;
    XS_RETURN_IF_ERROR(d_.check(d_.cuDriverGetVersion(&version), "cuDriverGetVersion"));
    if (int needed = cudaVersionForPtxIsa(*isa); version < needed)
      return absl::FailedPreconditionError(strCat(
          "the NVIDIA driver on cuda:", device.ordinal, " supports CUDA ", cudaVersionText(version),
          ", but the kernels of @", function, " are PTX ISA ", *isa / 10, ".", *isa % 10, " (for ",
          device.arch, "), which needs a driver for CUDA ", cudaVersionText(needed),
          " or newer: update the NVIDIA driver"));
    return absl::OkStatus();
  }
  GpuCall loadModule(const std::string &ptx, ModuleHandle *module,
                     std::string *log) const override {
    std::string buffer(16384, '\0');
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferBytes};
    void *values[] = {buffer.data(),
                      reinterpret_cast<void *>(static_cast<uintptr_t>(buffer.size()))};
    CUmodule loaded = nullptr;
    CUresult r = d_.cuModuleLoadDataEx(&loaded, ptx.c_str(), 2, options, values);
    *module = loaded;
    if (r != 0)
      *log = buffer.substr(0, buffer.find('\0'));
    return {r, "cuModuleLoadDataEx"};
  }
  GpuCall unloadModule(ModuleHandle module) const override {
    return {d_.cuModuleUnload(static_cast<CUmodule>(module)), "cuModuleUnload"};
  }
  std::string kernelSymbol(const std::string &planSymbol) const override {
    return nvptxSymbol(planSymbol);
  }
  GpuCall function(ModuleHandle module, const std::string &symbol,
                   FunctionHandle *function) const override {
    CUfunction found = nullptr;
    CUresult r = d_.cuModuleGetFunction(&found, static_cast<CUmodule>(module), symbol.c_str());
    *function = found;
    return {r, "cuModuleGetFunction"};
  }
  GpuCall staticSharedBytes(FunctionHandle function, int *bytes) const override {
    return {d_.cuFuncGetAttribute(bytes, kFuncSharedSizeBytes, cuFunction(function)),
            "cuFuncGetAttribute"};
  }
  GpuCall allowDynamicSharedBytes(FunctionHandle function, int bytes) const override {
    return {d_.cuFuncSetAttribute(cuFunction(function), kFuncMaxDynamicSharedSizeBytes, bytes),
            "cuFuncSetAttribute"};
  }
  GpuCall occupancy(FunctionHandle function, int threads, size_t dynamicSharedBytes,
                    int *blocks) const override {
    return {d_.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, cuFunction(function), threads,
                                                           dynamicSharedBytes),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor"};
  }

  GpuCall allocate(size_t bytes, DevicePointer *pointer) const override {
    CUdeviceptr allocated = 0;
    CUresult r = d_.cuMemAlloc(&allocated, bytes);
    *pointer = allocated;
    return {r, "cuMemAlloc"};
  }
  GpuCall free(DevicePointer pointer) const override {
    return {d_.cuMemFree(cu(pointer)), "cuMemFree"};
  }
  GpuCall allocatePinned(size_t bytes, void **pointer) const override {
    return {d_.cuMemHostAlloc(pointer, bytes, 0), "cuMemHostAlloc"};
  }
  GpuCall freePinned(void *pointer) const override {
    return {d_.cuMemFreeHost(pointer), "cuMemFreeHost"};
  }
  GpuCall copyToDevice(DevicePointer to, const void *from, size_t bytes) const override {
    return {d_.cuMemcpyHtoD(cu(to), from, bytes), "cuMemcpyHtoD"};
  }
  GpuCall copyToDeviceAsync(DevicePointer to, const void *from, size_t bytes,
                            StreamHandle stream) const override {
    return {d_.cuMemcpyHtoDAsync(cu(to), from, bytes, cu(stream)), "cuMemcpyHtoDAsync"};
  }
  GpuCall copyToHostAsync(void *to, DevicePointer from, size_t bytes,
                          StreamHandle stream) const override {
    return {d_.cuMemcpyDtoHAsync(to, cu(from), bytes, cu(stream)), "cuMemcpyDtoHAsync"};
  }
  GpuCall copyOnDeviceAsync(DevicePointer to, DevicePointer from, size_t bytes,
                            StreamHandle stream) const override {
    return {d_.cuMemcpyDtoDAsync(cu(to), cu(from), bytes, cu(stream)), "cuMemcpyDtoDAsync"};
  }

  GpuCall createStream(StreamHandle *stream) const override {
    CUstream created = nullptr;
    CUresult r = d_.cuStreamCreate(&created, kStreamNonBlocking);
    *stream = created;
    return {r, "cuStreamCreate"};
  }
  GpuCall destroyStream(StreamHandle stream) const override {
    return {d_.cuStreamDestroy(cu(stream)), "cuStreamDestroy"};
  }
  GpuCall synchronizeStream(StreamHandle stream) const override {
    return {d_.cuStreamSynchronize(cu(stream)), "cuStreamSynchronize"};
  }
  GpuCall createEvent(bool timing, EventHandle *event) const override {
    CUevent created = nullptr;
    CUresult r = d_.cuEventCreate(&created, timing ? 0 : kEventDisableTiming);
    *event = created;
    return {r, "cuEventCreate"};
  }
  GpuCall destroyEvent(EventHandle event) const override {
    return {d_.cuEventDestroy(cuEvent(event)), "cuEventDestroy"};
  }
  GpuCall recordEvent(EventHandle event, StreamHandle stream) const override {
    return {d_.cuEventRecord(cuEvent(event), cu(stream)), "cuEventRecord"};
  }
  GpuCall synchronizeEvent(EventHandle event) const override {
    return {d_.cuEventSynchronize(cuEvent(event)), "cuEventSynchronize"};
  }
  GpuCall queryEvent(EventHandle event) const override {
    return {d_.cuEventQuery(cuEvent(event)), "cuEventQuery"};
  }
  GpuCall elapsedMilliseconds(EventHandle start, EventHandle end,
                              float *milliseconds) const override {
    return {d_.cuEventElapsedTime(milliseconds, cuEvent(start), cuEvent(end)),
            "cuEventElapsedTime"};
  }

  GpuCall launch(FunctionHandle function, unsigned blocks, unsigned threads,
                 unsigned dynamicSharedBytes, StreamHandle stream, void **params) const override {
    return {d_.cuLaunchKernel(cuFunction(function), blocks, 1, 1, threads, 1, 1, dynamicSharedBytes,
                              cu(stream), params, nullptr),
            "cuLaunchKernel"};
  }
  bool hasCooperativeLaunch() const override { return d_.cuLaunchCooperativeKernel != nullptr; }
  GpuCall launchCooperative(FunctionHandle function, unsigned blocks, unsigned threads,
                            unsigned dynamicSharedBytes, StreamHandle stream,
                            void **params) const override {
    return {d_.cuLaunchCooperativeKernel(cuFunction(function), blocks, 1, 1, threads, 1, 1,
                                         dynamicSharedBytes, cu(stream), params),
            "cuLaunchCooperativeKernel"};
  }

  absl::StatusOr<std::unique_ptr<gpu::GpuMatmul>> createMatmul() const override {
    XS_ASSIGN_OR_RETURN(const CublasLtLibrary *library, findCublasLt_());
    XS_ASSIGN_OR_RETURN(std::unique_ptr<CudaMatmul> matmul, CudaMatmul::create(*library));
    return std::unique_ptr<gpu::GpuMatmul>(std::move(matmul));
  }

private:
  const CudaDriver &d_;
  FindCublasLt findCublasLt_;
};

} // namespace

std::shared_ptr<const gpu::GpuDriver> cudaGpuDriver(const CudaDriver &driver,
                                                    FindCublasLt findCublasLt) {
  return std::make_shared<CudaGpuDriver>(driver, findCublasLt);
}

} // namespace xs::cuda
