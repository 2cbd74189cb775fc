#ifndef XSTITCH_RUNTIME_CUDA_CUDADRIVER_H
#define XSTITCH_RUNTIME_CUDA_CUDADRIVER_H

// The CUDA Driver API, loaded at run time (dlopen of libcuda.so.1): the build
// needs no CUDA, and a machine without the NVIDIA driver or without a GPU gets
// an error that says which is missing instead of a failed link or a crash.
// Only the entry points xstitch uses are declared, with the driver's own
// types reduced to what their ABI is (handles are pointers, a device is an
// int, a device pointer 64 bits).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace xs::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

/// What a device reports (cuDeviceGetAttribute), in the driver's units.
struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerMultiprocessor = 0;
  int maxBlocksPerMultiprocessor = 0;
  int sharedBytesPerBlockOptIn = 0;
  int sharedBytesPerMultiprocessor = 0;
  int registersPerMultiprocessor = 0;
  int registersPerBlock = 0;
  int l2Bytes = 0;
  bool cooperativeLaunch = false;
  size_t totalMemoryBytes = 0;
  /// "sm_90" for compute capability 9.0.
  std::string arch() const;
};

/// The driver's entry points. Thread-safe once loaded (the driver is).
struct CudaDriver {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxReset)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext *context) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned numOptions,
                                 int *options, void **values) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction function) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction function,
                                                          int blockSize,
                                                          size_t dynamicSharedBytes) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void *source, size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *destination, CUdeviceptr source, size_t bytes) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr destination, unsigned char value, size_t bytes) = nullptr;
  CUresult (*cuMemHostAlloc)(void **pointer, size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemFreeHost)(void *pointer) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr destination, const void *source, size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void *destination, CUdeviceptr source, size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventQuery)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start, CUevent end) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream, void **params,
                             void **extra) = nullptr;
  CUresult (*cuLaunchCooperativeKernel)(CUfunction function, unsigned gridX, unsigned gridY,
                                        unsigned gridZ, unsigned blockX, unsigned blockY,
                                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                                        void **params) = nullptr;

  /// The driver, loaded and initialized once per process. Errors
  /// (FailedPrecondition) say what is missing: the library (no NVIDIA
  /// driver installed), an entry point (a driver too old), or cuInit's
  /// failure with the driver's message (e.g. no device).
  static absl::StatusOr<const CudaDriver *> get();
  /// Loads `library` and resolves the entry points without initializing
  /// (get() does both for kCudaDriverLibrary); tests load others.
  static absl::StatusOr<std::unique_ptr<CudaDriver>> load(const std::string &library);

  /// OK for CUDA_SUCCESS; otherwise an error with the driver's name and
  /// text of `result`: "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX
  /// JIT compilation failed)". Out of device memory is ResourceExhausted,
  /// anything else Internal.
  absl::Status check(CUresult result, std::string_view call) const;

  /// Whether `result` is a kernel fault that leaves the context unusable
  /// (an illegal address, instruction or launch failure: every later call
  /// on the context fails the same way).
  static bool isStickyFault(CUresult result);

  /// The number of CUDA devices (0 is not an error).
  absl::StatusOr<int> deviceCount() const;
  /// Device `ordinal`'s attributes; an ordinal out of range is an error
  /// naming the devices there are.
  absl::StatusOr<CudaDeviceInfo> deviceInfo(int ordinal) const;
};

/// The library the driver is loaded from.
inline constexpr const char *kCudaDriverLibrary = "libcuda.so.1";

} // namespace xs::cuda

#endif // XSTITCH_RUNTIME_CUDA_CUDADRIVER_H
