#include "runtime/cuda/CudaDriver.h"

#include <mutex>

#include "ir/Diagnostics.h"
#include "runtime/SharedLibrary.h"

namespace xs::cuda {

namespace {

// CUdevice_attribute values (cuda.h); stable across driver versions.
enum Attribute : int {
  kMaxThreadsPerBlock = 1,
  kWarpSize = 10,
  kMaxRegistersPerBlock = 12,
  kMultiprocessorCount = 16,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiprocessor = 39,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerMultiprocessor = 81,
  kMaxRegistersPerMultiprocessor = 82,
  kCooperativeLaunch = 95,
  kMaxSharedMemoryPerBlockOptIn = 97,
  kMaxBlocksPerMultiprocessor = 106,
};

} // namespace

std::string CudaDeviceInfo::arch() const { return strCat("sm_", computeMajor, computeMinor); }

absl::StatusOr<std::unique_ptr<CudaDriver>> CudaDriver::load(const std::string &library) {
  absl::StatusOr<void *> handle = openSharedLibrary(library);
  if (!handle.ok())
    return absl::FailedPreconditionError(strCat(
        "the NVIDIA driver library ", library, " cannot be loaded (", handle.status().message(),
        "): CUDA devices need the NVIDIA driver; on a machine without one use --device=cpu"));
  auto d = std::make_unique<CudaDriver>();
  EntryPoints take(*handle, library,
                   "the NVIDIA driver is too old for xstitch (it needs CUDA 11 or newer)");
  take("cuInit", d->cuInit);
  take("cuDriverGetVersion", d->cuDriverGetVersion);
  take("cuGetErrorName", d->cuGetErrorName);
  take("cuGetErrorString", d->cuGetErrorString);
  take("cuDeviceGetCount", d->cuDeviceGetCount);
  take("cuDeviceGet", d->cuDeviceGet);
  take("cuDeviceGetName", d->cuDeviceGetName);
  take("cuDeviceGetAttribute", d->cuDeviceGetAttribute);
  take("cuDeviceTotalMem_v2", d->cuDeviceTotalMem);
  take("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain);
  take("cuDevicePrimaryCtxRelease_v2", d->cuDevicePrimaryCtxRelease);
  take("cuDevicePrimaryCtxReset_v2", d->cuDevicePrimaryCtxReset);
  take("cuCtxSetCurrent", d->cuCtxSetCurrent);
  take("cuCtxGetCurrent", d->cuCtxGetCurrent);
  take("cuModuleLoadDataEx", d->cuModuleLoadDataEx);
  take("cuModuleUnload", d->cuModuleUnload);
  take("cuModuleGetFunction", d->cuModuleGetFunction);
  take("cuFuncSetAttribute", d->cuFuncSetAttribute);
  take("cuFuncGetAttribute", d->cuFuncGetAttribute);
  take("cuOccupancyMaxActiveBlocksPerMultiprocessor",
       d->cuOccupancyMaxActiveBlocksPerMultiprocessor);
  take("cuMemAlloc_v2", d->cuMemAlloc);
  take("cuMemFree_v2", d->cuMemFree);
  take("cuMemcpyHtoD_v2", d->cuMemcpyHtoD);
  take("cuMemcpyDtoH_v2", d->cuMemcpyDtoH);
  take("cuMemsetD8_v2", d->cuMemsetD8);
  take("cuMemHostAlloc", d->cuMemHostAlloc);
  take("cuMemFreeHost", d->cuMemFreeHost);
  take("cuMemcpyHtoDAsync_v2", d->cuMemcpyHtoDAsync);
  take("cuMemcpyDtoHAsync_v2", d->cuMemcpyDtoHAsync);
  take("cuMemcpyDtoDAsync_v2", d->cuMemcpyDtoDAsync);
  take("cuStreamCreate", d->cuStreamCreate);
  take("cuStreamDestroy_v2", d->cuStreamDestroy);
  take("cuStreamSynchronize", d->cuStreamSynchronize);
  take("cuEventCreate", d->cuEventCreate);
  take("cuEventDestroy_v2", d->cuEventDestroy);
  take("cuEventRecord", d->cuEventRecord);
  take("cuEventSynchronize", d->cuEventSynchronize);
  take("cuEventQuery", d->cuEventQuery);
  take("cuEventElapsedTime", d->cuEventElapsedTime);
  take("cuLaunchKernel", d->cuLaunchKernel);
  take("cuLaunchCooperativeKernel", d->cuLaunchCooperativeKernel);
  if (!take.status().ok()) {
    dlclose(*handle);
    return take.status();
  }
  return d;
}

absl::StatusOr<const CudaDriver *> CudaDriver::get() {
  static std::once_flag once;
  static absl::StatusOr<std::unique_ptr<CudaDriver>> *loaded = nullptr;
  std::call_once(once, [] {
    loaded = new absl::StatusOr<std::unique_ptr<CudaDriver>>(load(kCudaDriverLibrary));
    if (loaded->ok())
      if (absl::Status s = (**loaded)->check((**loaded)->cuInit(0), "cuInit"); !s.ok())
        *loaded = absl::FailedPreconditionError(
            strCat("the NVIDIA driver does not start: ", s.message()));
  });
  if (!loaded->ok())
    return loaded->status();
  return loaded->value().get();
}

namespace {

/// Names of the errors a driver that cannot start reports, for when it
/// cannot name them itself (the toolkit's stub library names nothing).
const char *fallbackName(CUresult result, const char **text) {
  switch (result) {
  case 34:
    *text = "the library is the CUDA toolkit's stub, not the NVIDIA driver";
    return "CUDA_ERROR_STUB_LIBRARY";
  case 35:
    *text = "the NVIDIA driver is older than this CUDA version needs";
    return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100:
    *text = "no CUDA-capable device is detected";
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return nullptr;
  }
}

} // namespace

absl::Status CudaDriver::check(CUresult result, std::string_view call) const {
  if (result == 0)
    return absl::OkStatus();
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != 0)
    name = nullptr;
  if (cuGetErrorString == nullptr || cuGetErrorString(result, &text) != 0)
    text = nullptr;
  if (name == nullptr)
    name = fallbackName(result, &text);
  std::string message = strCat(call, ": ", name ? name : strCat("CUDA error ", result),
                               text ? strCat(" (", text, ")") : std::string());
  constexpr CUresult kOutOfMemory = 2;
  if (result == kOutOfMemory)
    return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

bool CudaDriver::isStickyFault(CUresult result) {
  // CUDA_ERROR_ILLEGAL_ADDRESS, _LAUNCH_TIMEOUT, _HARDWARE_STACK_ERROR,
  // _ILLEGAL_INSTRUCTION, _MISALIGNED_ADDRESS, _INVALID_ADDRESS_SPACE,
  // _INVALID_PC, _LAUNCH_FAILED (cuda.h).
  switch (result) {
  case 700:
  case 702:
  case 714:
  case 715:
  case 716:
  case 717:
  case 718:
  case 719:
    return true;
  default:
    return false;
  }
}

absl::StatusOr<int> CudaDriver::deviceCount() const {
  int count = 0;
  XS_RETURN_IF_ERROR(check(cuDeviceGetCount(&count), "cuDeviceGetCount"));
  return count;
}

absl::StatusOr<CudaDeviceInfo> CudaDriver::deviceInfo(int ordinal) const {
  XS_ASSIGN_OR_RETURN(int count, deviceCount());
  if (ordinal < 0 || ordinal >= count)
    return absl::InvalidArgumentError(
        count == 0 ? strCat("there is no CUDA device (the driver sees none)")
                   : strCat("there is no CUDA device ", ordinal, "; devices are 0 to ", count - 1));
  CUdevice device = 0;
  XS_RETURN_IF_ERROR(check(cuDeviceGet(&device, ordinal), "cuDeviceGet"));
  CudaDeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  XS_RETURN_IF_ERROR(check(cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName"));
  info.name = name;
  auto attribute = [&](Attribute a, int &out) {
    return check(cuDeviceGetAttribute(&out, a, device), "cuDeviceGetAttribute");
  };
  int cooperative = 0;
  for (auto [a, out] : {std::pair<Attribute, int *>{kComputeCapabilityMajor, &info.computeMajor},
                        {kComputeCapabilityMinor, &info.computeMinor},
                        {kMultiprocessorCount, &info.multiprocessors},
                        {kWarpSize, &info.warpSize},
                        {kMaxThreadsPerBlock, &info.maxThreadsPerBlock},
                        {kMaxThreadsPerMultiprocessor, &info.maxThreadsPerMultiprocessor},
                        {kMaxBlocksPerMultiprocessor, &info.maxBlocksPerMultiprocessor},
                        {kMaxSharedMemoryPerBlockOptIn, &info.sharedBytesPerBlockOptIn},
                        {kMaxSharedMemoryPerMultiprocessor, &info.sharedBytesPerMultiprocessor},
                        {kMaxRegistersPerMultiprocessor, &info.registersPerMultiprocessor},
                        {kMaxRegistersPerBlock, &info.registersPerBlock},
                        {kL2CacheSize, &info.l2Bytes},
                        {kCooperativeLaunch, &cooperative}})
    XS_RETURN_IF_ERROR(attribute(a, *out));
  info.cooperativeLaunch = cooperative != 0;
  XS_RETURN_IF_ERROR(check(cuDeviceTotalMem(&info.totalMemoryBytes, device), "cuDeviceTotalMem"));
  return info;
}

} // namespace xs::cuda
