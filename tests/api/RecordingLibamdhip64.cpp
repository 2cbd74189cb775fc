// A recording HIP as a library of its own, libamdhip64.so, for the C API's
// HIP tests: libxstitch.so loads it as it loads ROCm's (dlopen of
// libamdhip64.so), so the whole path from kDLROCM tensors to launches is
// exercised without an AMD GPU. The GPU is an MI300X (gfx942); "device"
// memory is host memory; nothing runs; copies, launches and
// synchronizations are recorded, and the test reads the record through
// recording_hip_state().

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/hip/HipDriver.h"
#include "tests/api/RecordingHip.h"
#include "tests/unit/ElfImage.h"

// The entry points have the types the library's table declares, exactly:
// UndefinedBehaviorSanitizer checks calls through function pointers.
using xs::hip::hipDevice_t;
using xs::hip::hipError_t;
using xs::hip::hipEvent_t;
using xs::hip::hipFunction_t;
using xs::hip::hipModule_t;
using xs::hip::hipStream_t;

namespace {

RecordingHipState state;
std::vector<std::string> functions; // handles are index + 1
std::mutex mutex;
thread_local int currentDevice = 0;

} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT RecordingHipState *recording_hip_state() { return &state; }

EXPORT hipError_t hipInit(unsigned) { return 0; }
EXPORT hipError_t hipDriverGetVersion(int *version) {
  *version = 60000000;
  return 0;
}
EXPORT const char *hipGetErrorName(hipError_t) { return "hipErrorRecording"; }
EXPORT const char *hipGetErrorString(hipError_t) { return "the recording HIP refused"; }
EXPORT hipError_t hipGetDeviceCount(int *count) {
  *count = 1;
  return 0;
}
EXPORT hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? 0 : 101; // hipErrorInvalidDevice
}
EXPORT hipError_t hipDeviceGetName(char *name, int length, hipDevice_t) {
  std::snprintf(name, static_cast<size_t>(length), "Recording MI300X");
  return 0;
}
EXPORT hipError_t hipDeviceGetAttribute(int *value, int attribute, int) {
  // An MI300X's: CUs, wavefront, threads per workgroup and per CU, LDS per
  // workgroup and per CU, L2, cooperative launch.
  static const std::map<int, int> attributes = {{63, 304},     {87, 64},    {56, 1024},
                                                {57, 2048},    {74, 65536}, {10002, 65536},
                                                {19, 4 << 20}, {10, 1}};
  auto found = attributes.find(attribute);
  *value = found == attributes.end() ? 0 : found->second;
  return 0;
}
EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t) {
  *bytes = size_t{192} << 30;
  return 0;
}
EXPORT hipError_t hipGetDeviceProperties(void *properties, int) {
  std::memset(properties, 0, 792); // ROCm 5's hipDeviceProp_t
  std::snprintf(static_cast<char *>(properties) + 396, 256, "gfx942:sramecc+:xnack-");
  return 0;
}
EXPORT hipError_t hipSetDevice(int ordinal) {
  currentDevice = ordinal;
  return ordinal == 0 ? 0 : 101;
}
EXPORT hipError_t hipGetDevice(int *ordinal) {
  *ordinal = currentDevice;
  return 0;
}
EXPORT hipError_t hipDeviceReset() { return 0; }
EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  std::lock_guard<std::mutex> lock(mutex);
  const char *bytes = static_cast<const char *>(image);
  state.codeObjects.emplace_back(bytes, xs::testing::elfImageSize(bytes));
  *module = reinterpret_cast<hipModule_t>(state.codeObjects.size());
  return 0;
}
EXPORT hipError_t hipModuleUnload(hipModule_t) { return 0; }
EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                       const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  const std::string &object = state.codeObjects[reinterpret_cast<uintptr_t>(module) - 1];
  if (object.find(std::string(name) + '\0') == std::string::npos)
    return 500; // hipErrorNotFound
  functions.push_back(name);
  *function = reinterpret_cast<hipFunction_t>(functions.size());
  return 0;
}
EXPORT hipError_t hipFuncGetAttribute(int *value, int attribute, hipFunction_t) {
  *value = attribute == 1 ? 128 : 0; // static LDS bytes
  return 0;
}
EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, hipFunction_t,
                                                                     int, size_t) {
  *blocks = 1;
  return 0;
}
EXPORT hipError_t hipMalloc(void **pointer, size_t bytes) {
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
EXPORT hipError_t hipFree(void *pointer) {
  std::free(pointer);
  return 0;
}
EXPORT hipError_t hipHostMalloc(void **pointer, size_t bytes, unsigned) {
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
EXPORT hipError_t hipHostFree(void *pointer) {
  std::free(pointer);
  return 0;
}
EXPORT hipError_t hipMemsetD8(void *destination, unsigned char value, size_t bytes) {
  std::memset(destination, value, bytes);
  return 0;
}
EXPORT hipError_t hipMemcpyHtoD(void *destination, void *source, size_t bytes) {
  std::memcpy(destination, source, bytes);
  return 0;
}
EXPORT hipError_t hipMemcpyHtoDAsync(void *destination, void *source, size_t bytes, hipStream_t) {
  state.hostToDevice.fetch_add(1);
  std::memcpy(destination, source, bytes);
  return 0;
}
EXPORT hipError_t hipMemcpyDtoHAsync(void *destination, void *source, size_t bytes, hipStream_t) {
  state.deviceToHost.fetch_add(1);
  std::memcpy(destination, source, bytes);
  return 0;
}
EXPORT hipError_t hipMemcpyDtoDAsync(void *destination, void *source, size_t bytes, hipStream_t) {
  state.deviceToDevice.fetch_add(1);
  std::memcpy(destination, source, bytes);
  return 0;
}
EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned) {
  *stream = reinterpret_cast<hipStream_t>(0x2);
  return 0;
}
EXPORT hipError_t hipStreamDestroy(hipStream_t) { return 0; }
EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  std::lock_guard<std::mutex> lock(mutex);
  state.synchronized.push_back(stream);
  return 0;
}
EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned) {
  *event = reinterpret_cast<hipEvent_t>(0x3);
  return 0;
}
EXPORT hipError_t hipEventDestroy(hipEvent_t) { return 0; }
EXPORT hipError_t hipEventRecord(hipEvent_t, hipStream_t) { return 0; }
EXPORT hipError_t hipEventSynchronize(hipEvent_t) { return 0; }
EXPORT hipError_t hipEventQuery(hipEvent_t) { return 0; } // the recording GPU is done at once
EXPORT hipError_t hipEventElapsedTime(float *milliseconds, hipEvent_t, hipEvent_t) {
  *milliseconds = 0;
  return 0;
}
EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned gridX, unsigned, unsigned,
                                        unsigned blockX, unsigned, unsigned, unsigned,
                                        hipStream_t stream, void **params, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  RecordedHipLaunch launch;
  launch.kernel = functions[reinterpret_cast<uintptr_t>(function) - 1];
  launch.grid = gridX;
  launch.threads = blockX;
  launch.stream = stream;
  const auto *table = reinterpret_cast<const uint64_t *>(*static_cast<uint64_t *>(params[0]));
  launch.buffers[0] = table[0];
  launch.buffers[1] = table[1];
  state.launches.push_back(launch);
  return 0;
}
