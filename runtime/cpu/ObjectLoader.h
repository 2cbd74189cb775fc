#ifndef XSTITCH_RUNTIME_CPU_OBJECTLOADER_H
#define XSTITCH_RUNTIME_CPU_OBJECTLOADER_H

// Loads the x86 backend's relocatable ELF objects (CompiledProgram::objects)
// into the process and resolves kernel symbols to callable functions. The
// objects are linked here, without LLVM, so that the runtime library can load
// AOT bundles and cached programs on machines without a compiler: their
// allocated sections go into one mapping (text executable, constants
// read-only), relocations are applied against the objects' own symbols, then
// `hostSymbols`, then the process's (libc's memset), and calls to functions
// out of reach of a 32-bit displacement go through a stub. Each LoadedObject
// has its own mapping, so objects never see each other's symbols; the kernels
// stay valid while it lives.
//
// What the x86 backend emits (position-independent code) is what is
// supported; another relocation type, a foreign or truncated object, or an
// undefined symbol is an Internal error naming the kernels, never a crash.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "backends/common/KernelABI.h"

namespace xs {

/// A symbol the loaded code may call that the host process defines.
struct HostSymbol {
  std::string name;
  void *address = nullptr;
};

class LoadedObject {
public:
  ~LoadedObject();
  LoadedObject(const LoadedObject &) = delete;
  LoadedObject &operator=(const LoadedObject &) = delete;

  /// Links `objects` (ELF relocatable objects for x86-64) into the process,
  /// their undefined references to `hostSymbols` resolved to those
  /// addresses. `kernels` names the kernels they hold, for the message when
  /// linking fails (an Internal error).
  static absl::StatusOr<std::unique_ptr<LoadedObject>>
  load(const std::vector<std::string> &objects, const std::vector<std::string> &kernels,
       const std::vector<HostSymbol> &hostSymbols = {});

  /// The function `symbol` of kernel `kernel`; a missing symbol is an
  /// Internal error naming the kernel. Thread-safe.
  absl::StatusOr<CpuKernelFn> lookup(const std::string &kernel, const std::string &symbol) const;

private:
  LoadedObject() = default;
  void *mapping_ = nullptr;
  size_t mappingBytes_ = 0;
  absl::flat_hash_map<std::string, void *> exports_; // global definitions
};

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_OBJECTLOADER_H
