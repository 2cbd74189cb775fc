#include "tests/unit/RecordingCudaDriver.h"

#include <cstdlib>
#include <cstring>

#include "backends/common/KernelABI.h"
#include "gtest/gtest.h"

namespace xs::cuda::testing {

RecordingGpu *recordingGpu = nullptr;

namespace {

constexpr int kStaticShared = 256;

CUresult fakeInit(unsigned) { return 0; }
CUresult fakeErrorName(CUresult, const char **name) {
  *name = "CUDA_ERROR_FAKE";
  return 0;
}
CUresult fakeErrorString(CUresult, const char **text) {
  *text = "the recording driver refused";
  return 0;
}
CUresult fakeDeviceCount(int *count) {
  *count = recordingGpu->devices;
  return 0;
}
CUresult fakeDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return 0;
}
CUresult fakeDeviceName(char *name, int length, CUdevice) {
  std::strncpy(name, "Recording H200", static_cast<size_t>(length));
  return 0;
}
CUresult fakeAttribute(int *value, int attribute, CUdevice) {
  static const std::map<int, int> attributes = {
      {1, 1024}, {10, 32}, {12, 65536},      {16, 132},   {38, 50 << 20}, {39, 2048},
      {75, 9},   {76, 0},  {81, 228 * 1024}, {82, 65536}, {95, 1},        {106, 32}};
  auto it = attributes.find(attribute);
  *value = attribute == 97 ? recordingGpu->sharedOptIn : it == attributes.end() ? 0 : it->second;
  return 0;
}
CUresult fakeTotalMem(size_t *bytes, CUdevice) {
  *bytes = size_t{141} << 30;
  return 0;
}
CUresult fakeRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(0x1);
  return 0;
}
CUresult fakeRelease(CUdevice) { return 0; }
CUresult fakeReset(CUdevice) {
  ++recordingGpu->resets;
  return 0;
}
CUresult fakeSetCurrent(CUcontext context) {
  recordingGpu->current = context;
  return 0;
}
CUresult fakeGetCurrent(CUcontext *context) {
  *context = recordingGpu->current;
  return 0;
}
CUresult fakeModuleLoad(CUmodule *module, const void *image, unsigned numOptions, int *options,
                        void **values) {
  if (recordingGpu->rejectPtx) {
    for (unsigned i = 0; i + 1 < numOptions; ++i)
      if (options[i] == 5 && options[i + 1] == 6)
        std::strncpy(static_cast<char *>(values[i]), "ptxas fatal: no kernel today",
                     reinterpret_cast<uintptr_t>(values[i + 1]));
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  recordingGpu->modules.push_back(static_cast<const char *>(image));
  *module = reinterpret_cast<CUmodule>(recordingGpu->modules.size());
  return 0;
}
CUresult fakeModuleUnload(CUmodule) { return 0; }
CUresult fakeGetFunction(CUfunction *function, CUmodule module, const char *name) {
  const std::string &ptx = recordingGpu->modules[reinterpret_cast<uintptr_t>(module) - 1];
  if (ptx.find(std::string(".entry ") + name + "(") == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  recordingGpu->functions.push_back(name);
  *function = reinterpret_cast<CUfunction>(recordingGpu->functions.size());
  return 0;
}
CUresult fakeFuncGetAttribute(int *value, int attribute, CUfunction) {
  *value = attribute == 1 ? kStaticShared : 0;
  return 0;
}
CUresult fakeFuncSetAttribute(CUfunction, int attribute, int value) {
  // Only the dynamic shared-memory ceiling, within the opt-in maximum.
  return attribute == 8 && value + kStaticShared <= recordingGpu->sharedOptIn ? 0 : 1;
}
/// Whether the next device or pinned allocation fails (FakeGpu::failFrom).
bool allocationFails() {
  int n = ++recordingGpu->allocationRequests;
  return recordingGpu->outOfMemory || (recordingGpu->failFrom > 0 && n >= recordingGpu->failFrom);
}
CUresult fakeAlloc(CUdeviceptr *pointer, size_t bytes) {
  if (allocationFails())
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  void *block = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  *pointer = reinterpret_cast<uintptr_t>(block);
  recordingGpu->live.insert(*pointer);
  ++recordingGpu->allocations;
  return 0;
}
CUresult fakeFree(CUdeviceptr pointer) {
  recordingGpu->live.erase(pointer);
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
CUresult fakeCopyToDevice(CUdeviceptr destination, const void *source, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(destination), source, bytes);
  return 0;
}
CUresult fakeCopyToHost(void *destination, CUdeviceptr source, size_t bytes) {
  std::memcpy(destination, reinterpret_cast<void *>(source), bytes);
  return 0;
}
CUresult fakeCopyToDeviceAsync(CUdeviceptr destination, const void *source, size_t bytes,
                               CUstream) {
  ++recordingGpu->hostToDevice;
  return fakeCopyToDevice(destination, source, bytes);
}
CUresult fakeCopyToHostAsync(void *destination, CUdeviceptr source, size_t bytes, CUstream) {
  ++recordingGpu->deviceToHost;
  return fakeCopyToHost(destination, source, bytes);
}
CUresult fakeCopyOnDeviceAsync(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                               CUstream) {
  ++recordingGpu->deviceToDevice;
  std::memcpy(reinterpret_cast<void *>(destination), reinterpret_cast<const void *>(source), bytes);
  return 0;
}
CUresult fakeStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(0x2);
  return 0;
}
CUresult fakeStreamDestroy(CUstream) { return 0; }
CUresult fakeEventCreate(CUevent *event, unsigned) {
  static uint64_t next = 0x5000;
  *event = reinterpret_cast<CUevent>(++next);
  ++recordingGpu->eventsLive;
  return 0;
}
CUresult fakeEventDestroy(CUevent) {
  --recordingGpu->eventsLive;
  return 0;
}
CUresult fakeEventRecord(CUevent event, CUstream) {
  recordingGpu->eventTicks[reinterpret_cast<uint64_t>(event)] = recordingGpu->ticks++;
  return 0;
}
CUresult fakeEventElapsed(float *milliseconds, CUevent start, CUevent end) {
  *milliseconds =
      0.25f * static_cast<float>(recordingGpu->eventTicks.at(reinterpret_cast<uint64_t>(end)) -
                                 recordingGpu->eventTicks.at(reinterpret_cast<uint64_t>(start)));
  return 0;
}
CUresult fakeDriverVersion(int *version) {
  *version = recordingGpu->driverVersion;
  return 0;
}
CUresult fakeEventQuery(CUevent) {
  return recordingGpu->eventsDone ? 0 : 600;
} // CUDA_ERROR_NOT_READY
CUresult fakeEventSynchronize(CUevent) { return 0; }
CUresult fakeHostAlloc(void **pointer, size_t bytes, unsigned) {
  if (allocationFails())
    return 2;
  *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
CUresult fakeFreeHost(void *pointer) {
  std::free(pointer);
  return 0;
}
CUresult fakeStreamSynchronize(CUstream stream) {
  recordingGpu->synchronized.push_back(stream);
  return recordingGpu->syncResult;
}
CUresult fakeOccupancy(int *blocks, CUfunction, int, size_t) {
  *blocks = recordingGpu->occupancy;
  return 0;
}
CUresult fakeLaunch(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                    CUstream stream, void **params, void **) {
  EXPECT_EQ(gridY * gridZ * blockY * blockZ, 1u);
  recordingGpu->launchStreams.push_back(stream);
  RecordedLaunch launch;
  launch.kernel = recordingGpu->functions[reinterpret_cast<uintptr_t>(function) - 1];
  launch.grid = gridX;
  launch.threads = blockX;
  launch.sharedBytes = sharedBytes;
  auto buffers = reinterpret_cast<const uint64_t *>(*static_cast<CUdeviceptr *>(params[0]));
  auto dims = reinterpret_cast<int64_t *>(*static_cast<CUdeviceptr *>(params[1]));
  launch.blockBegin = *static_cast<int64_t *>(params[2]);
  // The tables are read as far as the test's plans need.
  launch.buffers.assign(buffers, buffers + 2);
  launch.table = buffers;
  launch.dims.assign(dims, dims + 2);
  launch.dimsArray = dims;
  if (recordingGpu->kernelEffect)
    recordingGpu->kernelEffect(launch);
  recordingGpu->launches.push_back(std::move(launch));
  return 0;
}
CUresult fakeCooperativeLaunch(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                               unsigned blockX, unsigned blockY, unsigned blockZ,
                               unsigned sharedBytes, CUstream stream, void **params) {
  CUresult result = fakeLaunch(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                               stream, params, nullptr);
  recordingGpu->launches.back().cooperative = true;
  return result;
}

} // namespace

CudaDriver recordingDriver() {
  CudaDriver d;
  d.cuInit = fakeInit;
  d.cuGetErrorName = fakeErrorName;
  d.cuGetErrorString = fakeErrorString;
  d.cuDeviceGetCount = fakeDeviceCount;
  d.cuDeviceGet = fakeDeviceGet;
  d.cuDeviceGetName = fakeDeviceName;
  d.cuDeviceGetAttribute = fakeAttribute;
  d.cuDeviceTotalMem = fakeTotalMem;
  d.cuDevicePrimaryCtxRetain = fakeRetain;
  d.cuDevicePrimaryCtxRelease = fakeRelease;
  d.cuDevicePrimaryCtxReset = fakeReset;
  d.cuCtxSetCurrent = fakeSetCurrent;
  d.cuCtxGetCurrent = fakeGetCurrent;
  d.cuModuleLoadDataEx = fakeModuleLoad;
  d.cuModuleUnload = fakeModuleUnload;
  d.cuModuleGetFunction = fakeGetFunction;
  d.cuFuncGetAttribute = fakeFuncGetAttribute;
  d.cuFuncSetAttribute = fakeFuncSetAttribute;
  d.cuMemAlloc = fakeAlloc;
  d.cuMemFree = fakeFree;
  d.cuMemcpyHtoD = fakeCopyToDevice;
  d.cuMemcpyDtoH = fakeCopyToHost;
  d.cuMemcpyHtoDAsync = fakeCopyToDeviceAsync;
  d.cuMemcpyDtoHAsync = fakeCopyToHostAsync;
  d.cuMemcpyDtoDAsync = fakeCopyOnDeviceAsync;
  d.cuStreamCreate = fakeStreamCreate;
  d.cuStreamDestroy = fakeStreamDestroy;
  d.cuStreamSynchronize = fakeStreamSynchronize;
  d.cuEventCreate = fakeEventCreate;
  d.cuEventDestroy = fakeEventDestroy;
  d.cuEventRecord = fakeEventRecord;
  d.cuEventElapsedTime = fakeEventElapsed;
  d.cuEventQuery = fakeEventQuery;
  d.cuDriverGetVersion = fakeDriverVersion;
  d.cuEventSynchronize = fakeEventSynchronize;
  d.cuMemHostAlloc = fakeHostAlloc;
  d.cuMemFreeHost = fakeFreeHost;
  d.cuLaunchKernel = fakeLaunch;
  d.cuLaunchCooperativeKernel = fakeCooperativeLaunch;
  d.cuOccupancyMaxActiveBlocksPerMultiprocessor = fakeOccupancy;
  return d;
}

} // namespace xs::cuda::testing
