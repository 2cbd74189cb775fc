#ifndef XSTITCH_DRIVER_CPUBACKEND_H
#define XSTITCH_DRIVER_CPUBACKEND_H

// The x86 backend (backends/x86) registered with the compile driver
// (Backends.cpp) for the "cpu" platform.

#include "backends/x86/X86Backend.h"
#include "driver/Backend.h"

namespace xs {

const Backend &x86Backend();

/// The x86 backend's options from the driver's.
X86Options x86OptionsFrom(const CodegenOptions &options);

/// resolveX86Cpu, with the host's resolved once per process.
X86Cpu x86CpuOf(const X86Options &options);

} // namespace xs

#endif // XSTITCH_DRIVER_CPUBACKEND_H
