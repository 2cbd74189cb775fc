#include "runtime/hip/HipGpuDriver.h"

#include <cctype>

#include "ir/Diagnostics.h"
#include "runtime/hip/HipMatmul.h"

namespace xs::hip {

namespace {

using gpu::ContextHandle;
using gpu::DevicePointer;
using gpu::EventHandle;
using gpu::FunctionHandle;
using gpu::GpuCall;
using gpu::ModuleHandle;
using gpu::StreamHandle;

// hipFunction_attribute, hipEvent and hipStream flags, hipError_t values
// (hip_runtime_api.h; CUDA's numbers).
constexpr int kFuncSharedSizeBytes = 1;
constexpr unsigned kEventDisableTiming = 2;
constexpr unsigned kStreamNonBlocking = 1;
constexpr hipError_t kNotReady = 600;

void *pointer(DevicePointer address) { return reinterpret_cast<void *>(address); }
hipStream_t hip(StreamHandle stream) { return static_cast<hipStream_t>(stream); }
hipEvent_t hipEvent(EventHandle event) { return static_cast<hipEvent_t>(event); }
hipFunction_t hipFunction(FunctionHandle function) { return static_cast<hipFunction_t>(function); }

/// The processor a code object is for, from the target triple in its
/// metadata ("amdgcn-amd-amdhsa--gfx942[:features]"); empty where it names
/// none.
std::string_view codeObjectProcessor(std::string_view hsaco) {
  constexpr std::string_view kTriple = "amdgcn-amd-amdhsa--";
  size_t at = hsaco.find(kTriple);
  if (at == std::string_view::npos)
    return {};
  size_t begin = at + kTriple.size(), end = begin;
  while (end < hsaco.size() && std::isalnum(static_cast<unsigned char>(hsaco[end])))
    ++end;
  return hsaco.substr(begin, end - begin);
}

ContextHandle contextOf(int ordinal) {
  return reinterpret_cast<ContextHandle>(static_cast<uintptr_t>(ordinal) + 1);
}

class HipGpuDriver : public gpu::GpuDriver {
public:
  HipGpuDriver(const HipDriver &driver, FindRocblas findRocblas)
      : d_(driver), findRocblas_(findRocblas) {}

  std::string_view platform() const override { return "hip"; }
  std::string_view vendor() const override { return "AMD"; }
  std::string_view codeFormat() const override { return "hsaco"; }
  std::string_view codeName() const override { return "HSA code object"; }

  absl::Status check(GpuCall call) const override { return d_.check(call.result, call.name); }
  bool isStickyFault(gpu::GpuResult result) const override {
    return HipDriver::isStickyFault(result);
  }
  bool isNotReady(gpu::GpuResult result) const override { return result == kNotReady; }

  absl::StatusOr<gpu::GpuDeviceInfo> deviceInfo(int ordinal) const override {
    XS_ASSIGN_OR_RETURN(HipDeviceInfo hip, d_.deviceInfo(ordinal));
    gpu::GpuDeviceInfo info;
    info.ordinal = hip.ordinal;
    info.name = hip.name;
    info.arch = hip.arch;
    info.multiprocessors = hip.computeUnits;
    info.warpSize = hip.warpSize;
    info.maxThreadsPerBlock = hip.maxThreadsPerBlock;
    info.sharedBytesPerBlock = hip.ldsBytesPerBlock;
    info.cooperativeLaunch = hip.cooperativeLaunch;
    info.totalMemoryBytes = hip.totalMemoryBytes;
    return info;
  }

  GpuCall retainContext(int ordinal, bool reset, ContextHandle *context) const override {
    if (!reset) {
      *context = contextOf(ordinal);
      return {0, "hipSetDevice"};
    }
    // hipDeviceReset resets the current GPU for the whole process, as
    // cuDevicePrimaryCtxReset does its primary context; the calling
    // thread's current GPU is left as it was.
    int previous = 0;
    if (hipError_t r = d_.hipGetDevice(&previous); r != 0)
      return {r, "hipGetDevice"};
    if (hipError_t r = d_.hipSetDevice(ordinal); r != 0)
      return {r, "hipSetDevice"};
    hipError_t r = d_.hipDeviceReset();
    (void)d_.hipSetDevice(previous);
    if (r == 0)
      *context = contextOf(ordinal);
    return {r, "hipDeviceReset"};
  }
  GpuCall releaseContext(int) const override { return {0, "hipSetDevice"}; }
  GpuCall currentContext(ContextHandle *context) const override {
    int ordinal = 0;
    hipError_t r = d_.hipGetDevice(&ordinal);
    *context = r == 0 ? contextOf(ordinal) : nullptr;
    return {r, "hipGetDevice"};
  }
  GpuCall setCurrentContext(ContextHandle context) const override {
    if (context == nullptr)
      return {0, "hipSetDevice"};
    return {d_.hipSetDevice(static_cast<int>(reinterpret_cast<uintptr_t>(context) - 1)),
            "hipSetDevice"};
  }

  // A code object runs on the processor it was compiled for only: HIP would
  // refuse another with a bare hipErrorNoBinaryForGpu.
  absl::Status checkCodeObject(const std::string &hsaco, const gpu::GpuDeviceInfo &device,
                               std::string_view function) const override {
    std::string_view processor = codeObjectProcessor(hsaco);
    if (processor.empty() || processor == device.arch)
      return absl::OkStatus();
    return absl::FailedPreconditionError(strCat(
        "the kernels of @", function, " are for ", processor, ", but hip:", device.ordinal, " (",
        device.name, ") is a ", device.arch, ": compile for it (--device=hip:", device.ordinal,
        " or --target=", device.arch, ")"));
  }
  GpuCall loadModule(const std::string &hsaco, ModuleHandle *module, std::string *) const override {
    hipModule_t loaded = nullptr;
    hipError_t r = d_.hipModuleLoadData(&loaded, hsaco.data());
    *module = loaded;
    return {r, "hipModuleLoadData"};
  }
  GpuCall unloadModule(ModuleHandle module) const override {
    return {d_.hipModuleUnload(static_cast<hipModule_t>(module)), "hipModuleUnload"};
  }
  std::string kernelSymbol(const std::string &planSymbol) const override { return planSymbol; }
  GpuCall function(ModuleHandle module, const std::string &symbol,
                   FunctionHandle *function) const override {
    hipFunction_t found = nullptr;
    hipError_t r =
        d_.hipModuleGetFunction(&found, static_cast<hipModule_t>(module), symbol.c_str());
    *function = found;
    return {r, "hipModuleGetFunction"};
  }
  GpuCall staticSharedBytes(FunctionHandle function, int *bytes) const override {
    return {d_.hipFuncGetAttribute(bytes, kFuncSharedSizeBytes, hipFunction(function)),
            "hipFuncGetAttribute"};
  }
  GpuCall allowDynamicSharedBytes(FunctionHandle, int) const override {
    return {0, "hipFuncSetAttribute"}; // a workgroup may use all of its LDS
  }
  GpuCall occupancy(FunctionHandle function, int threads, size_t dynamicSharedBytes,
                    int *blocks) const override {
    return {d_.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, hipFunction(function),
                                                                  threads, dynamicSharedBytes),
            "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor"};
  }

  GpuCall allocate(size_t bytes, DevicePointer *address) const override {
    void *allocated = nullptr;
    hipError_t r = d_.hipMalloc(&allocated, bytes);
    *address = reinterpret_cast<DevicePointer>(allocated);
    return {r, "hipMalloc"};
  }
  GpuCall free(DevicePointer address) const override {
    return {d_.hipFree(pointer(address)), "hipFree"};
  }
  GpuCall allocatePinned(size_t bytes, void **host) const override {
    return {d_.hipHostMalloc(host, bytes, 0), "hipHostMalloc"};
  }
  GpuCall freePinned(void *host) const override { return {d_.hipHostFree(host), "hipHostFree"}; }
  GpuCall copyToDevice(DevicePointer to, const void *from, size_t bytes) const override {
    return {d_.hipMemcpyHtoD(pointer(to), const_cast<void *>(from), bytes), "hipMemcpyHtoD"};
  }
  GpuCall copyToDeviceAsync(DevicePointer to, const void *from, size_t bytes,
                            StreamHandle stream) const override {
    return {d_.hipMemcpyHtoDAsync(pointer(to), const_cast<void *>(from), bytes, hip(stream)),
            "hipMemcpyHtoDAsync"};
  }
  GpuCall copyToHostAsync(void *to, DevicePointer from, size_t bytes,
                          StreamHandle stream) const override {
    return {d_.hipMemcpyDtoHAsync(to, pointer(from), bytes, hip(stream)), "hipMemcpyDtoHAsync"};
  }
  GpuCall copyOnDeviceAsync(DevicePointer to, DevicePointer from, size_t bytes,
                            StreamHandle stream) const override {
    return {d_.hipMemcpyDtoDAsync(pointer(to), pointer(from), bytes, hip(stream)),
            "hipMemcpyDtoDAsync"};
  }

  GpuCall createStream(StreamHandle *stream) const override {
    hipStream_t created = nullptr;
    hipError_t r = d_.hipStreamCreateWithFlags(&created, kStreamNonBlocking);
    *stream = created;
    return {r, "hipStreamCreateWithFlags"};
  }
  GpuCall destroyStream(StreamHandle stream) const override {
    return {d_.hipStreamDestroy(hip(stream)), "hipStreamDestroy"};
  }
  GpuCall synchronizeStream(StreamHandle stream) const override {
    return {d_.hipStreamSynchronize(hip(stream)), "hipStreamSynchronize"};
  }
  GpuCall createEvent(bool timing, EventHandle *event) const override {
    hipEvent_t created = nullptr;
    hipError_t r = d_.hipEventCreateWithFlags(&created, timing ? 0 : kEventDisableTiming);
    *event = created;
    return {r, "hipEventCreateWithFlags"};
  }
  GpuCall destroyEvent(EventHandle event) const override {
    return {d_.hipEventDestroy(hipEvent(event)), "hipEventDestroy"};
  }
  GpuCall recordEvent(EventHandle event, StreamHandle stream) const override {
    return {d_.hipEventRecord(hipEvent(event), hip(stream)), "hipEventRecord"};
  }
  GpuCall synchronizeEvent(EventHandle event) const override {
    return {d_.hipEventSynchronize(hipEvent(event)), "hipEventSynchronize"};
  }
  GpuCall queryEvent(EventHandle event) const override {
    return {d_.hipEventQuery(hipEvent(event)), "hipEventQuery"};
  }
  GpuCall elapsedMilliseconds(EventHandle start, EventHandle end,
                              float *milliseconds) const override {
    return {d_.hipEventElapsedTime(milliseconds, hipEvent(start), hipEvent(end)),
            "hipEventElapsedTime"};
  }

  GpuCall launch(FunctionHandle function, unsigned blocks, unsigned threads,
                 unsigned dynamicSharedBytes, StreamHandle stream, void **params) const override {
    return {d_.hipModuleLaunchKernel(hipFunction(function), blocks, 1, 1, threads, 1, 1,
                                     dynamicSharedBytes, hip(stream), params, nullptr),
            "hipModuleLaunchKernel"};
  }
  bool hasCooperativeLaunch() const override {
    return d_.hipModuleLaunchCooperativeKernel != nullptr;
  }
  GpuCall launchCooperative(FunctionHandle function, unsigned blocks, unsigned threads,
                            unsigned dynamicSharedBytes, StreamHandle stream,
                            void **params) const override {
    return {d_.hipModuleLaunchCooperativeKernel(hipFunction(function), blocks, 1, 1, threads, 1, 1,
                                                dynamicSharedBytes, hip(stream), params),
            "hipModuleLaunchCooperativeKernel"};
  }

  absl::StatusOr<std::unique_ptr<gpu::GpuMatmul>> createMatmul() const override {
    XS_ASSIGN_OR_RETURN(const RocblasLibrary *library, findRocblas_());
    XS_ASSIGN_OR_RETURN(std::unique_ptr<HipMatmul> matmul, HipMatmul::create(*library));
    return std::unique_ptr<gpu::GpuMatmul>(std::move(matmul));
  }

private:
  const HipDriver &d_;
  FindRocblas findRocblas_;
};

} // namespace

std::shared_ptr<const gpu::GpuDriver> hipGpuDriver(const HipDriver &driver,
                                                   FindRocblas findRocblas) {
  return std::make_shared<HipGpuDriver>(driver, findRocblas);
}

} // namespace xs::hip
