#ifndef XSTITCH_RUNTIME_GPU_GPUDRIVER_H
#define XSTITCH_RUNTIME_GPU_GPUDRIVER_H

// What the GPU runtime (GpuContext, GpuExecutable) asks of a vendor's driver:
// the module API that CUDA's Driver API and HIP share in shape, with the
// vendor's handles reduced to pointers and device addresses to 64 bits.
// runtime/cuda/CudaGpuDriver.h fills it from libcuda, runtime/hip/
// HipGpuDriver.h from libamdhip64; the differences between the two (code
// format, kernel symbols, JIT logs, shared-memory opt-in, cooperative
// launches, attribute numbers) stay behind this interface, so the context
// and the executable have no vendor branches.
//
// Every call returns a GpuCall: the vendor's result code and the name of the
// vendor's entry point, which GpuContext::check turns into a status that
// names the call ("hipModuleLaunchKernel: hipErrorInvalidValue").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/ElementType.h"

namespace xs::gpu {

using GpuResult = int;
using DevicePointer = uint64_t;
using ContextHandle = void *;
using ModuleHandle = void *;
using FunctionHandle = void *;
using StreamHandle = void *;
using EventHandle = void *;

/// One call into the vendor's library: its result (0 is success in both
/// CUDA and HIP) and the entry point's name for messages.
struct GpuCall {
  GpuResult result = 0;
  std::string_view name;
};

/// What the runtime needs to know of a GPU, in the vendor-neutral terms of
/// the plan: "multiprocessors" are NVIDIA's SMs and AMD's compute units, a
/// warp is a wavefront, shared memory is LDS.
struct GpuDeviceInfo {
  int ordinal = 0;
  std::string name;
  /// The code target the GPU runs: "sm_90", "gfx942".
  std::string arch;
  int multiprocessors = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  /// Shared memory a block may use, after any opt-in the driver needs.
  int sharedBytesPerBlock = 0;
  bool cooperativeLaunch = false;
  size_t totalMemoryBytes = 0;
};

/// The product `dot` runs on the GPU through a vendor's BLAS library
/// (runtime/cuda/CudaMatmul.h): batched row-major [..., M, K] x [..., K, N].
struct MatmulShape {
  int64_t batches = 1, m = 0, k = 0, n = 0;
};

class GpuMatmul {
public:
  virtual ~GpuMatmul() = default;
  /// Whether the library multiplies `type` as xstitch's interpreter does.
  virtual bool supports(ElementType type) const = 0;
  /// Workspace bytes run() needs for this product (0 for none).
  virtual absl::StatusOr<int64_t> workspaceBytes(ElementType type, const MatmulShape &shape) = 0;
  /// Queues c = a x b on `stream`; the operands and `workspace` stay
  /// untouched until the stream has run it.
  virtual absl::Status run(ElementType type, const MatmulShape &shape, DevicePointer a,
                           DevicePointer b, DevicePointer c, DevicePointer workspace,
                           StreamHandle stream) = 0;
};

class GpuDriver {
public:
  virtual ~GpuDriver() = default;

  /// The platform's name, which devices are named after: "cuda" (cuda:N),
  /// "hip" (hip:N).
  virtual std::string_view platform() const = 0;
  /// Who makes the GPU, for messages: "NVIDIA", "AMD".
  virtual std::string_view vendor() const = 0;
  /// The format of the code objects loadModule takes
  /// (CompiledProgram::objectFormat): "ptx", "hsaco".
  virtual std::string_view codeFormat() const = 0;
  /// The code format in messages: "PTX", "HSA code object".
  virtual std::string_view codeName() const = 0;

  /// OK for success; otherwise an error naming the call with the vendor's
  /// name and text of the result. Out of memory is ResourceExhausted,
  /// anything else Internal.
  virtual absl::Status check(GpuCall call) const = 0;
  /// Whether `result` is a kernel fault that leaves the GPU's context
  /// unusable (every later call on it fails the same way).
  virtual bool isStickyFault(GpuResult result) const = 0;
  /// Whether `result` says an event has not been reached yet.
  virtual bool isNotReady(GpuResult result) const = 0;

  /// GPU `ordinal`'s attributes; no such GPU is InvalidArgument naming the
  /// GPUs there are.
  virtual absl::StatusOr<GpuDeviceInfo> deviceInfo(int ordinal) const = 0;

  /// The GPU's primary context (`reset`: a fresh one, replacing one a
  /// kernel fault made unusable), retained until releaseContext.
  virtual GpuCall retainContext(int ordinal, bool reset, ContextHandle *context) const = 0;
  virtual GpuCall releaseContext(int ordinal) const = 0;
  /// The calling thread's current context, and making one current.
  virtual GpuCall currentContext(ContextHandle *context) const = 0;
  virtual GpuCall setCurrentContext(ContextHandle context) const = 0;

  /// Checks, before loading, that the driver can load `image` (CUDA: the
  /// PTX ISA against the driver's version); the error says what to update.
  virtual absl::Status checkCodeObject(const std::string &image, const GpuDeviceInfo &device,
                                       std::string_view function) const = 0;
  /// Loads a code object; where the driver compiles it (PTX), its log of
  /// a refusal goes to `log`.
  virtual GpuCall loadModule(const std::string &image, ModuleHandle *module,
                             std::string *log) const = 0;
  virtual GpuCall unloadModule(ModuleHandle module) const = 0;
  /// The symbol a kernel of the plan has in the code object.
  virtual std::string kernelSymbol(const std::string &planSymbol) const = 0;
  virtual GpuCall function(ModuleHandle module, const std::string &symbol,
                           FunctionHandle *function) const = 0;
  /// The kernel's own shared memory (its static allocations).
  virtual GpuCall staticSharedBytes(FunctionHandle function, int *bytes) const = 0;
  /// Lets launches of `function` ask for `bytes` of dynamic shared memory
  /// (CUDA needs an opt-in past 48 KiB; HIP needs none).
  virtual GpuCall allowDynamicSharedBytes(FunctionHandle function, int bytes) const = 0;
  /// Blocks of `function` that fit a multiprocessor at once.
  virtual GpuCall occupancy(FunctionHandle function, int threads, size_t dynamicSharedBytes,
                            int *blocks) const = 0;

  virtual GpuCall allocate(size_t bytes, DevicePointer *pointer) const = 0;
  virtual GpuCall free(DevicePointer pointer) const = 0;
  /// Page-locked host memory, which copies read and write asynchronously.
  virtual GpuCall allocatePinned(size_t bytes, void **pointer) const = 0;
  virtual GpuCall freePinned(void *pointer) const = 0;
  /// A synchronous upload (constants, at load time).
  virtual GpuCall copyToDevice(DevicePointer to, const void *from, size_t bytes) const = 0;
  virtual GpuCall copyToDeviceAsync(DevicePointer to, const void *from, size_t bytes,
                                    StreamHandle stream) const = 0;
  virtual GpuCall copyToHostAsync(void *to, DevicePointer from, size_t bytes,
                                  StreamHandle stream) const = 0;
  virtual GpuCall copyOnDeviceAsync(DevicePointer to, DevicePointer from, size_t bytes,
                                    StreamHandle stream) const = 0;

  /// A stream that does not synchronize with the legacy default stream.
  virtual GpuCall createStream(StreamHandle *stream) const = 0;
  virtual GpuCall destroyStream(StreamHandle stream) const = 0;
  virtual GpuCall synchronizeStream(StreamHandle stream) const = 0;
  virtual GpuCall createEvent(bool timing, EventHandle *event) const = 0;
  virtual GpuCall destroyEvent(EventHandle event) const = 0;
  virtual GpuCall recordEvent(EventHandle event, StreamHandle stream) const = 0;
  virtual GpuCall synchronizeEvent(EventHandle event) const = 0;
  virtual GpuCall queryEvent(EventHandle event) const = 0;
  virtual GpuCall elapsedMilliseconds(EventHandle start, EventHandle end,
                                      float *milliseconds) const = 0;

  /// Queues `blocks` blocks of `threads` threads of `function` with
  /// `params` (the kernels' ABI: backends/common/KernelABI.h).
  virtual GpuCall launch(FunctionHandle function, unsigned blocks, unsigned threads,
                         unsigned dynamicSharedBytes, StreamHandle stream, void **params) const = 0;
  /// Whether the library launches cooperative kernels (whose blocks are
  /// resident at once); the GPU must support them too
  /// (GpuDeviceInfo::cooperativeLaunch).
  virtual bool hasCooperativeLaunch() const = 0;
  virtual GpuCall launchCooperative(FunctionHandle function, unsigned blocks, unsigned threads,
                                    unsigned dynamicSharedBytes, StreamHandle stream,
                                    void **params) const = 0;

  /// The vendor's BLAS for `dot` on the GPU, created with the GPU's context
  /// current; where the library is not installed, an error saying so (the
  /// host then runs the product).
  virtual absl::StatusOr<std::unique_ptr<GpuMatmul>> createMatmul() const = 0;
};

} // namespace xs::gpu

#endif // XSTITCH_RUNTIME_GPU_GPUDRIVER_H
