#ifndef XSTITCH_RUNTIME_CPU_CPUDEVICE_H
#define XSTITCH_RUNTIME_CPU_CPUDEVICE_H

// The CPU device: loads x86 object code with LLVM's ORC JIT linker, runs the
// host plan, launches a kernel's grid over TBB workers (each worker runs a
// contiguous range of blocks), allocates outputs and per-call arenas from a
// caching allocator, and runs library ops (dot) on the host.

#include <memory>

#include "runtime/Device.h"

namespace xs {

struct CpuDeviceOptions {
  /// Worker threads; 0: TBB's default (all cores).
  int threads = 0;
  /// Kernels flush subnormal floats to zero (DenormalFlush.h).
  bool flushDenormals = true;
};

std::unique_ptr<Device> createCpuDevice(const CpuDeviceOptions &options);

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_CPUDEVICE_H
