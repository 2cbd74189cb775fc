#ifndef XSTITCH_BACKENDS_COMMON_GPUCODEGEN_H
#define XSTITCH_BACKENDS_COMMON_GPUCODEGEN_H

// The steps every GPU backend takes from an emitted kernel module to code:
// verify it, optimize it for the target machine, and print what the
// machine's code generator makes of it (PTX text, AMDGPU assembly or an
// object file). Thread-safe: each call owns its module and pass managers.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

namespace xs {

/// Verifies `module` (an Internal error naming `what`, "the NVPTX module",
/// when it fails) and runs LLVM's default pipeline at `optLevel` (0-3) with
/// address spaces inferred first: kernels cast their buffers to the global
/// address space and back, and inferring the spaces before InstCombine folds
/// that round trip away makes their accesses global.
absl::Status optimizeGpuModule(llvm::Module &module, llvm::TargetMachine &machine, int optLevel,
                               std::string_view what);

/// The machine's code for `module`: assembly text or an object file.
absl::StatusOr<std::string> generateMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                                                llvm::CodeGenFileType type, std::string_view what);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_GPUCODEGEN_H
