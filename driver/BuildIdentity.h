#ifndef XSTITCH_DRIVER_BUILDIDENTITY_H
#define XSTITCH_DRIVER_BUILDIDENTITY_H

// What identifies the compiler that generated a program, for persistent
// cache keys and bundle headers: xstitch's version, LLVM's, and the build of
// the binary the driver is linked into (its GNU build id; else its size and
// modification time), so that a rebuilt xstitch of the same version never
// reuses code an older build wrote.

#include <string>

namespace xs {

/// "xstitch 0.1.0 (build 4d39ce57...; LLVM 19.1.7)"; computed once.
const std::string &compilerIdentity();

} // namespace xs

#endif // XSTITCH_DRIVER_BUILDIDENTITY_H
