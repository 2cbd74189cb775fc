#include "runtime/hip/HipDriver.h"

#include <cstring>
#include <mutex>
#include <vector>

#include "absl/strings/match.h"
#include "ir/Diagnostics.h"
#include "runtime/SharedLibrary.h"

namespace xs::hip {

namespace {

// hipDeviceAttribute_t values (hip_runtime_api.h of ROCm 5 and 6, whose
// attributes were renumbered in ROCm 5.0 and are stable since).
enum Attribute : int {
  kCooperativeLaunch = 10,
  kL2CacheSize = 19,
  kMaxSharedMemoryPerBlock = 74,
  kMaxThreadsPerBlock = 56,
  kMaxThreadsPerMultiProcessor = 57,
  kMultiprocessorCount = 63,
  kWarpSize = 87,
  kMaxSharedMemoryPerMultiprocessor = 10002,
};

// hipDeviceProp_t of ROCm 5 (hip_runtime_api.h of ROCm 5.2): its size, and
// where gcnArchName ("gfx90a:sramecc+:xnack-", char[256]) is in it.
constexpr size_t kDevicePropertiesBytes = 792;
constexpr size_t kGcnArchNameOffset = 396;
constexpr size_t kGcnArchNameBytes = 256;

constexpr hipError_t kNoDevice = 100;
constexpr hipError_t kInvalidDevice = 101;
constexpr hipError_t kOutOfMemory = 2;

/// The names the library goes by: ROCm's development link, then the
/// runtime packages' sonames (Debian's libamdhip64-5 has only the latter).
const std::vector<std::string> &libraryNames() {
  static const std::vector<std::string> names = {kHipLibrary, "libamdhip64.so.6",
                                                 "libamdhip64.so.5"};
  return names;
}

} // namespace

absl::StatusOr<std::unique_ptr<HipDriver>> HipDriver::load(const std::string &library) {
  absl::StatusOr<void *> handle = openSharedLibrary(library);
  if (!handle.ok())
    return absl::FailedPreconditionError(
        strCat("the HIP library ", library, " cannot be loaded (", handle.status().message(),
               "): AMD GPU devices need ROCm's HIP runtime; on a machine without one use "
               "--device=cpu"));
  auto d = std::make_unique<HipDriver>();
  EntryPoints take(*handle, library,
                   "the ROCm installation is too old for xstitch (it needs ROCm 5 or newer)");
  take("hipInit", d->hipInit);
  take("hipDriverGetVersion", d->hipDriverGetVersion);
  take("hipGetErrorName", d->hipGetErrorName);
  take("hipGetErrorString", d->hipGetErrorString);
  take("hipGetDeviceCount", d->hipGetDeviceCount);
  take("hipDeviceGet", d->hipDeviceGet);
  take("hipDeviceGetName", d->hipDeviceGetName);
  take("hipDeviceGetAttribute", d->hipDeviceGetAttribute);
  take("hipDeviceTotalMem", d->hipDeviceTotalMem);
  take("hipSetDevice", d->hipSetDevice);
  take("hipGetDevice", d->hipGetDevice);
  take("hipDeviceReset", d->hipDeviceReset);
  take("hipGetDeviceProperties", d->hipGetDeviceProperties);
  take("hipModuleLoadData", d->hipModuleLoadData);
  take("hipModuleUnload", d->hipModuleUnload);
  take("hipModuleGetFunction", d->hipModuleGetFunction);
  take("hipFuncGetAttribute", d->hipFuncGetAttribute);
  take("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
       d->hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
  take("hipMalloc", d->hipMalloc);
  take("hipFree", d->hipFree);
  take("hipHostMalloc", d->hipHostMalloc);
  take("hipHostFree", d->hipHostFree);
  take("hipMemsetD8", d->hipMemsetD8);
  take("hipMemcpyHtoD", d->hipMemcpyHtoD);
  take("hipMemcpyHtoDAsync", d->hipMemcpyHtoDAsync);
  take("hipMemcpyDtoHAsync", d->hipMemcpyDtoHAsync);
  take("hipMemcpyDtoDAsync", d->hipMemcpyDtoDAsync);
  take("hipStreamCreateWithFlags", d->hipStreamCreateWithFlags);
  take("hipStreamDestroy", d->hipStreamDestroy);
  take("hipStreamSynchronize", d->hipStreamSynchronize);
  take("hipEventCreateWithFlags", d->hipEventCreateWithFlags);
  take("hipEventDestroy", d->hipEventDestroy);
  take("hipEventRecord", d->hipEventRecord);
  take("hipEventSynchronize", d->hipEventSynchronize);
  take("hipEventQuery", d->hipEventQuery);
  take("hipEventElapsedTime", d->hipEventElapsedTime);
  take("hipModuleLaunchKernel", d->hipModuleLaunchKernel);
  if (!take.status().ok()) {
    dlclose(*handle);
    return take.status();
  }
  d->hipModuleLaunchCooperativeKernel =
      reinterpret_cast<decltype(d->hipModuleLaunchCooperativeKernel)>(
          dlsym(*handle, "hipModuleLaunchCooperativeKernel"));
  return d;
}

absl::StatusOr<const HipDriver *> HipDriver::get() {
  static std::once_flag once;
  static absl::StatusOr<std::unique_ptr<HipDriver>> *loaded = nullptr;
  std::call_once(once, [] {
    for (const std::string &name : libraryNames()) {
      loaded = new absl::StatusOr<std::unique_ptr<HipDriver>>(load(name));
      if (loaded->ok() || !absl::StrContains(loaded->status().message(), "cannot be loaded"))
        break;
    }
    if (loaded->ok())
      if (hipError_t result = (**loaded)->hipInit(0); result != 0)
        *loaded = absl::FailedPreconditionError(
            strCat("HIP does not start: ", (**loaded)->check(result, "hipInit").message(),
                   result == kNoDevice || result == kInvalidDevice
                       ? "; the HIP runtime sees no AMD GPU this process may use"
                       : ""));
  });
  if (!loaded->ok())
    return loaded->status();
  return loaded->value().get();
}

absl::Status HipDriver::check(hipError_t result, std::string_view call) const {
  if (result == 0)
    return absl::OkStatus();
  const char *name = hipGetErrorName ? hipGetErrorName(result) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(result) : nullptr;
  // HIP's text is often its name again.
  bool textSaysMore = text != nullptr && (name == nullptr || std::string_view(text) != name);
  std::string message = strCat(call, ": ", name ? std::string(name) : strCat("HIP error ", result),
                               textSaysMore ? strCat(" (", text, ")") : std::string());
  if (result == kOutOfMemory)
    return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

bool HipDriver::isStickyFault(hipError_t result) {
  // hipErrorIllegalAddress, hipErrorLaunchTimeOut, hipErrorIllegalInstruction
  // (hip_runtime_api.h, CUDA's numbers), hipErrorLaunchFailure.
  switch (result) {
  case 700:
  case 702:
  case 715:
  case 719:
    return true;
  default:
    return false;
  }
}

absl::StatusOr<int> HipDriver::deviceCount() const {
  int count = 0;
  hipError_t result = hipGetDeviceCount(&count);
  if (result == kNoDevice)
    return 0;
  XS_RETURN_IF_ERROR(check(result, "hipGetDeviceCount"));
  return count;
}

absl::StatusOr<HipDeviceInfo> HipDriver::deviceInfo(int ordinal) const {
  XS_ASSIGN_OR_RETURN(int count, deviceCount());
  if (ordinal < 0 || ordinal >= count)
    return absl::InvalidArgumentError(
        count == 0 ? strCat("there is no HIP device (the HIP runtime sees no AMD GPU)")
                   : strCat("there is no HIP device ", ordinal, "; devices are 0 to ", count - 1));
  hipDevice_t device = 0;
  XS_RETURN_IF_ERROR(check(hipDeviceGet(&device, ordinal), "hipDeviceGet"));
  HipDeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  XS_RETURN_IF_ERROR(check(hipDeviceGetName(name, sizeof(name) - 1, device), "hipDeviceGetName"));
  info.name = name;
  // Room beyond the structure, should a library write more than ROCm 5's.
  std::vector<char> properties(4 * kDevicePropertiesBytes, '\0');
  XS_RETURN_IF_ERROR(
      check(hipGetDeviceProperties(properties.data(), ordinal), "hipGetDeviceProperties"));
  std::string gcnArch(properties.data() + kGcnArchNameOffset,
                      strnlen(properties.data() + kGcnArchNameOffset, kGcnArchNameBytes - 1));
  info.arch = gcnArch.substr(0, gcnArch.find(':'));
  int cooperative = 0;
  for (auto [a, out] : {std::pair<Attribute, int *>{kMultiprocessorCount, &info.computeUnits},
                        {kWarpSize, &info.warpSize},
                        {kMaxThreadsPerBlock, &info.maxThreadsPerBlock},
                        {kMaxThreadsPerMultiProcessor, &info.maxThreadsPerCU},
                        {kMaxSharedMemoryPerBlock, &info.ldsBytesPerBlock},
                        {kMaxSharedMemoryPerMultiprocessor, &info.ldsBytesPerCU},
                        {kL2CacheSize, &info.l2Bytes},
                        {kCooperativeLaunch, &cooperative}})
    XS_RETURN_IF_ERROR(check(hipDeviceGetAttribute(out, a, ordinal), "hipDeviceGetAttribute"));
  info.cooperativeLaunch = cooperative != 0;
  XS_RETURN_IF_ERROR(check(hipDeviceTotalMem(&info.totalMemoryBytes, device), "hipDeviceTotalMem"));
  return info;
}

} // namespace xs::hip
