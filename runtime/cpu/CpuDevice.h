#ifndef XSTITCH_RUNTIME_CPU_CPUDEVICE_H
#define XSTITCH_RUNTIME_CPU_CPUDEVICE_H

// The CPU device: links x86 object code into the process (ObjectLoader.h), runs the
// host plan, launches a kernel's grid over TBB workers (each worker runs a
// contiguous range of blocks), allocates outputs and per-call arenas from a
// caching allocator, and runs library ops (dot) on the host.

#include <memory>
#include <string>
#include <vector>

#include "runtime/CachingAllocator.h"
#include "runtime/Device.h"
#include "runtime/cpu/ObjectLoader.h"

namespace xs {

struct CpuDeviceOptions {
  /// Worker threads; 0: TBB's default (all cores).
  int threads = 0;
  /// Kernels flush subnormal floats to zero (DenormalFlush.h).
  bool flushDenormals = true;
  /// The device's name (Device::name, Executable::deviceName).
  std::string name = "cpu";
  /// Host functions the loaded code calls (the NVPTX simulation's lane
  /// scheduler, runtime/simt).
  std::vector<HostSymbol> hostSymbols;
  /// Bytes every buffer a kernel is given is aligned to: inputs that are
  /// not are copied first (the NVPTX simulation runs code that relies on
  /// kGpuBufferAlignment, KernelABI.h). Allocated buffers are always
  /// CachingAllocator::kAlignment aligned.
  int64_t inputAlignment = 1;
  /// Launches of a variant with a cooperative kernel
  /// (HostLaunchVariant::cooperative, the NVPTX simulation's) run it; false:
  /// its phases, one round each.
  bool cooperativeLaunches = true;
  /// Where the device's caching allocator takes memory from; null: the
  /// host's (aligned_alloc). Tests give one that fails, to check that every
  /// allocation failure is an error.
  std::shared_ptr<MemorySource> memory;
};

std::unique_ptr<Device> createCpuDevice(const CpuDeviceOptions &options);

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_CPUDEVICE_H
