#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPUCOMPILER_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPUCOMPILER_H

// LLVM IR -> AMD GPU code in process, through LLVM's AMDGPU backend: a
// module is verified, optimized for the architecture and compiled to a
// relocatable object (or printed as AMDGCN assembly), and the object is
// linked into an HSA code object (HSACO: a shared ELF holding the kernels
// and their descriptors) by lld's ELF linker as a library. Needs no GPU, no
// ROCm and no external tool. Thread-safe: the link, which lld cannot run
// twice at once in a process, is serialized.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

namespace xs {

struct AmdgpuCompileOptions {
  std::string arch = "gfx942"; // a preset of AmdgpuTargetDescription.h
  int optLevel = 3;
};

/// The target machine for `arch`. An unknown arch is an InvalidArgument
/// error listing the known ones.
absl::StatusOr<std::unique_ptr<llvm::TargetMachine>>
createAmdgpuTargetMachine(const AmdgpuCompileOptions &options);

/// Verifies, optimizes and compiles `module` for `options.arch` (setting the
/// module's triple and data layout): AMDGCN assembly text, or a relocatable
/// ELF object.
absl::StatusOr<std::string> compileToAmdgcn(llvm::Module &module,
                                            const AmdgpuCompileOptions &options);
absl::StatusOr<std::string> compileToAmdgpuObject(llvm::Module &module,
                                                  const AmdgpuCompileOptions &options);

/// Links a relocatable object of AMDGPU kernels into an HSA code object
/// (`ld.lld -shared`), the image HIP's module loader takes. lld's own
/// messages make the Internal error when the link fails.
absl::StatusOr<std::string> linkHsaco(const std::string &object);

} // namespace xs

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPUCOMPILER_H
