#ifndef XSTITCH_RUNTIME_HIP_HIPDRIVER_H
#define XSTITCH_RUNTIME_HIP_HIPDRIVER_H

// HIP's module API, loaded at run time (dlopen of libamdhip64.so), as the CUDA
// device loads the NVIDIA driver (runtime/cuda/CudaDriver.h): the build needs
// no ROCm, and a machine without it or without an AMD GPU gets an error that
// says which is missing instead of a failed link or a crash. Only the entry
// points an AMD GPU device needs are declared, with HIP's types reduced to
// their ABI (handles are pointers, a device is an int). The device that
// launches xstitch's HSA code objects through it
// is the shared GPU runtime's (runtime/hip/HipGpuDriver.h).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace xs::hip {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;

/// What a device reports (hipDeviceGetAttribute), in HIP's units.
struct HipDeviceInfo {
  int ordinal = 0;
  std::string name;
  /// The LLVM processor the GPU runs ("gfx942"), from HIP's gcnArchName
  /// without its feature suffix (":sramecc+:xnack-").
  std::string arch;
  int computeUnits = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerCU = 0;
  int ldsBytesPerBlock = 0;
  int ldsBytesPerCU = 0;
  int l2Bytes = 0;
  bool cooperativeLaunch = false;
  size_t totalMemoryBytes = 0;
};

/// The library's entry points. Thread-safe once loaded (HIP is).
struct HipDriver {
  hipError_t (*hipInit)(unsigned flags) = nullptr;
  hipError_t (*hipDriverGetVersion)(int *version) = nullptr;
  const char *(*hipGetErrorName)(hipError_t error) = nullptr;
  const char *(*hipGetErrorString)(hipError_t error) = nullptr;
  hipError_t (*hipGetDeviceCount)(int *count) = nullptr;
  hipError_t (*hipDeviceGet)(hipDevice_t *device, int ordinal) = nullptr;
  hipError_t (*hipDeviceGetName)(char *name, int length, hipDevice_t device) = nullptr;
  hipError_t (*hipDeviceGetAttribute)(int *value, int attribute, int ordinal) = nullptr;
  hipError_t (*hipDeviceTotalMem)(size_t *bytes, hipDevice_t device) = nullptr;
  hipError_t (*hipSetDevice)(int ordinal) = nullptr;
  hipError_t (*hipGetDevice)(int *ordinal) = nullptr;
  hipError_t (*hipDeviceReset)() = nullptr;
  /// Fills a hipDeviceProp_t of ROCm 5's layout (the unversioned symbol
  /// keeps it in ROCm 6, which added hipGetDevicePropertiesR0600): read
  /// through HipDriver::deviceInfo only.
  hipError_t (*hipGetDeviceProperties)(void *properties, int ordinal) = nullptr;
  hipError_t (*hipModuleLoadData)(hipModule_t *module, const void *image) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t module) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t *function, hipModule_t module,
                                     const char *name) = nullptr;
  hipError_t (*hipFuncGetAttribute)(int *value, int attribute, hipFunction_t function) = nullptr;
  hipError_t (*hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)(
      int *blocks, hipFunction_t function, int blockSize, size_t dynamicSharedBytes) = nullptr;
  hipError_t (*hipMalloc)(void **pointer, size_t bytes) = nullptr;
  hipError_t (*hipFree)(void *pointer) = nullptr;
  hipError_t (*hipHostMalloc)(void **pointer, size_t bytes, unsigned flags) = nullptr;
  hipError_t (*hipHostFree)(void *pointer) = nullptr;
  hipError_t (*hipMemsetD8)(void *destination, unsigned char value, size_t bytes) = nullptr;
  hipError_t (*hipMemcpyHtoD)(void *destination, void *source, size_t bytes) = nullptr;
  hipError_t (*hipMemcpyHtoDAsync)(void *destination, void *source, size_t bytes,
                                   hipStream_t stream) = nullptr;
  hipError_t (*hipMemcpyDtoHAsync)(void *destination, void *source, size_t bytes,
                                   hipStream_t stream) = nullptr;
  hipError_t (*hipMemcpyDtoDAsync)(void *destination, void *source, size_t bytes,
                                   hipStream_t stream) = nullptr;
  hipError_t (*hipStreamCreateWithFlags)(hipStream_t *stream, unsigned flags) = nullptr;
  hipError_t (*hipStreamDestroy)(hipStream_t stream) = nullptr;
  hipError_t (*hipStreamSynchronize)(hipStream_t stream) = nullptr;
  hipError_t (*hipEventCreateWithFlags)(hipEvent_t *event, unsigned flags) = nullptr;
  hipError_t (*hipEventDestroy)(hipEvent_t event) = nullptr;
  hipError_t (*hipEventRecord)(hipEvent_t event, hipStream_t stream) = nullptr;
  hipError_t (*hipEventSynchronize)(hipEvent_t event) = nullptr;
  hipError_t (*hipEventQuery)(hipEvent_t event) = nullptr;
  hipError_t (*hipEventElapsedTime)(float *milliseconds, hipEvent_t start,
                                    hipEvent_t end) = nullptr;
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t function, unsigned gridX, unsigned gridY,
                                      unsigned gridZ, unsigned blockX, unsigned blockY,
                                      unsigned blockZ, unsigned sharedBytes, hipStream_t stream,
                                      void **params, void **extra) = nullptr;
  /// Null where the library lacks it (ROCm before 6.0): variants of several
  /// phases then run as a launch per phase.
  hipError_t (*hipModuleLaunchCooperativeKernel)(hipFunction_t function, unsigned gridX,
                                                 unsigned gridY, unsigned gridZ, unsigned blockX,
                                                 unsigned blockY, unsigned blockZ,
                                                 unsigned sharedBytes, hipStream_t stream,
                                                 void **params) = nullptr;

  /// The library, loaded and initialized once per process. Errors
  /// (FailedPrecondition) say what is missing: the library (no ROCm
  /// installed), an entry point (a ROCm too old), or hipInit's failure with
  /// HIP's message (no AMD GPU, or none this process may use).
  static absl::StatusOr<const HipDriver *> get();
  /// Loads `library` and resolves the entry points without initializing
  /// (get() does both for kHipLibrary); tests load others.
  static absl::StatusOr<std::unique_ptr<HipDriver>> load(const std::string &library);

  /// OK for hipSuccess; otherwise an error with HIP's name and text of
  /// `result`: "hipModuleLoadData: hipErrorInvalidImage (invalid kernel
  /// file)". Out of device memory is ResourceExhausted, anything else
  /// Internal.
  absl::Status check(hipError_t result, std::string_view call) const;

  /// Whether `result` is a kernel fault that leaves the device unusable for
  /// the process (an illegal address, instruction or launch failure).
  static bool isStickyFault(hipError_t result);

  /// The number of HIP devices (0 is not an error: HIP without an AMD GPU
  /// reports hipErrorNoDevice, which is 0 here).
  absl::StatusOr<int> deviceCount() const;
  /// Device `ordinal`'s attributes; an ordinal out of range is an error
  /// naming the devices there are.
  absl::StatusOr<HipDeviceInfo> deviceInfo(int ordinal) const;
};

/// The library HIP is loaded from.
inline constexpr const char *kHipLibrary = "libamdhip64.so";

} // namespace xs::hip

#endif // XSTITCH_RUNTIME_HIP_HIPDRIVER_H
