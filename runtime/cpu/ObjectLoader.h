#ifndef XSTITCH_RUNTIME_CPU_OBJECTLOADER_H
#define XSTITCH_RUNTIME_CPU_OBJECTLOADER_H

// Loads the x86 backend's relocatable object (CompiledProgram::object) into
// the process with LLVM's ORC LLJIT and resolves kernel symbols to callable
// functions. Each loaded object gets its own LLJIT instance, so objects never
// see each other's symbols and unloading one is just destroying it; the
// kernels stay valid while the LoadedObject lives.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/common/KernelABI.h"

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

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

  /// Links `objects` (ELF relocatable objects) into a fresh JIT, their
  /// undefined references to `hostSymbols` resolved to those addresses.
  /// `kernels` names the kernels they hold, for the message when linking
  /// fails (an Internal error).
  static absl::StatusOr<std::unique_ptr<LoadedObject>>
  load(const std::vector<std::string> &objects, const std::vector<std::string> &kernels,
       const std::vector<HostSymbol> &hostSymbols = {});

  /// The function `symbol` of kernel `kernel`; a missing symbol or a failure
  /// to link it is an Internal error naming the kernel. Thread-safe.
  absl::StatusOr<CpuKernelFn> lookup(const std::string &kernel, const std::string &symbol);

private:
  explicit LoadedObject(std::unique_ptr<llvm::orc::LLJIT> jit);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

} // namespace xs

#endif // XSTITCH_RUNTIME_CPU_OBJECTLOADER_H
