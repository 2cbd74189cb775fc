// A recording NVIDIA driver as a library of its own, libcuda.so.1, for the
// C API's CUDA tests: libxstitch.so loads it as it loads the real driver
// (dlopen of libcuda.so.1), so the whole path from DLPack tensors to
// launches is exercised without a GPU. "Device" memory is host memory;
// nothing runs; every copy, launch and synchronization is recorded, and the
// test reads the record through recording_cuda_state().

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/cuda/CudaDriver.h"
#include "tests/api/RecordingCuda.h"

// The entry points have the types the driver table declares, exactly:
// UndefinedBehaviorSanitizer checks calls through function pointers.
using xs::cuda::CUcontext;
using xs::cuda::CUdevice;
using xs::cuda::CUdeviceptr;
using xs::cuda::CUevent;
using xs::cuda::CUfunction;
using xs::cuda::CUmodule;
using xs::cuda::CUresult;
using xs::cuda::CUstream;

namespace {

RecordingCudaState state;
std::vector<std::string> modules;   // PTX loaded; handles are index + 1
std::vector<std::string> functions; // handles are index + 1
std::mutex mutex;

template <typename Handle = void *> Handle handle(size_t index) {
  return reinterpret_cast<Handle>(static_cast<uintptr_t>(index));
}
template <typename Handle> size_t indexOf(Handle h) {
  return static_cast<size_t>(reinterpret_cast<uintptr_t>(h));
}

} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT RecordingCudaState *recording_cuda_state() { return &state; }

EXPORT CUresult cuInit(unsigned) { return 0; }
EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}
EXPORT CUresult cuGetErrorName(CUresult, const char **name) {
  *name = "CUDA_ERROR_RECORDING";
  return 0;
}
EXPORT CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "the recording driver refused";
  return 0;
}
EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return 0;
}
EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? 0 : 101; // CUDA_ERROR_INVALID_DEVICE
}
EXPORT CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Recording H200", static_cast<size_t>(length));
  return 0;
}
EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice) {
  // An H200's: threads per block, warp, registers, SMs, L2, threads per SM,
  // compute capability 9.0, shared memory per SM, registers per SM,
  // cooperative launch, opt-in shared memory per block, blocks per SM.
  static const std::map<int, int> attributes = {
      {1, 1024}, {10, 32},         {12, 65536}, {16, 132}, {38, 50 << 20},   {39, 2048}, {75, 9},
      {76, 0},   {81, 228 * 1024}, {82, 65536}, {95, 1},   {97, 227 * 1024}, {106, 32}};
  auto it = attributes.find(attribute);
  *value = it == attributes.end() ? 0 : it->second;
  return 0;
}
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice) {
  *bytes = size_t{141} << 30;
  return 0;
}
EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = handle<CUcontext>(1);
  return 0;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return 0; }
EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice) { return 0; }
thread_local CUcontext currentContext = nullptr;
EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  currentContext = context;
  return 0;
}
EXPORT CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = currentContext;
  return 0;
}
EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned, int *, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  modules.push_back(static_cast<const char *>(image));
  *module = handle<CUmodule>(modules.size());
  return 0;
}
EXPORT CUresult cuModuleUnload(CUmodule) { return 0; }
EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  if (modules[indexOf(module) - 1].find(std::string(".entry ") + name + "(") == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  functions.push_back(name);
  *function = handle<CUfunction>(functions.size());
  return 0;
}
EXPORT CUresult cuFuncSetAttribute(CUfunction, int, int) { return 0; }
EXPORT CUresult cuFuncGetAttribute(int *value, int attribute, CUfunction) {
  *value = attribute == 1 ? 256 : 0; // static shared bytes
  return 0;
}
EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction, int, size_t) {
  *blocks = 1;
  return 0;
}
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  *pointer = reinterpret_cast<uintptr_t>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  return 0;
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr destination, const void *source, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(destination), source, bytes);
  return 0;
}
EXPORT CUresult cuMemcpyDtoH_v2(void *destination, CUdeviceptr source, size_t bytes) {
  std::memcpy(destination, reinterpret_cast<const void *>(source), bytes);
  return 0;
}
EXPORT CUresult cuMemsetD8_v2(CUdeviceptr destination, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void *>(destination), value, bytes);
  return 0;
}
EXPORT CUresult cuMemHostAlloc(void **pointer, size_t bytes, unsigned) {
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
EXPORT CUresult cuMemFreeHost(void *pointer) {
  std::free(pointer);
  return 0;
}
EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void *source, size_t bytes,
                                     CUstream) {
  state.hostToDevice.fetch_add(1);
  return cuMemcpyHtoD_v2(destination, source, bytes);
}
EXPORT CUresult cuMemcpyDtoHAsync_v2(void *destination, CUdeviceptr source, size_t bytes,
                                     CUstream) {
  state.deviceToHost.fetch_add(1);
  return cuMemcpyDtoH_v2(destination, source, bytes);
}
EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                                     CUstream) {
  state.deviceToDevice.fetch_add(1);
  std::memcpy(reinterpret_cast<void *>(destination), reinterpret_cast<const void *>(source), bytes);
  return 0;
}
EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned) {
  *stream = handle<CUstream>(0x2);
  return 0;
}
EXPORT CUresult cuStreamDestroy_v2(CUstream) { return 0; }
EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  std::lock_guard<std::mutex> lock(mutex);
  state.synchronized.push_back(stream);
  return 0;
}
EXPORT CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = handle<CUevent>(0x3);
  return 0;
}
EXPORT CUresult cuEventDestroy_v2(CUevent) { return 0; }
EXPORT CUresult cuEventRecord(CUevent, CUstream) { return 0; }
EXPORT CUresult cuEventSynchronize(CUevent) { return 0; }
EXPORT CUresult cuEventQuery(CUevent) { return 0; } // the recording GPU is done at once
EXPORT CUresult cuEventElapsedTime(float *milliseconds, CUevent, CUevent) {
  *milliseconds = 0;
  return 0;
}
EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned, unsigned,
                               unsigned blockX, unsigned, unsigned, unsigned, CUstream stream,
                               void **params, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  RecordedCudaLaunch launch;
  launch.kernel = functions[indexOf(function) - 1];
  launch.grid = gridX;
  launch.threads = blockX;
  launch.stream = stream;
  const auto *table = reinterpret_cast<const uint64_t *>(*static_cast<CUdeviceptr *>(params[0]));
  launch.buffers[0] = table[0];
  launch.buffers[1] = table[1];
  state.launches.push_back(launch);
  return 0;
}
EXPORT CUresult cuLaunchCooperativeKernel(CUfunction function, unsigned gridX, unsigned gridY,
                                          unsigned gridZ, unsigned blockX, unsigned blockY,
                                          unsigned blockZ, unsigned shared, CUstream stream,
                                          void **params) {
  return cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, shared, stream,
                        params, nullptr);
}
