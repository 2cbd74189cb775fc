#ifndef XSTITCH_BACKENDS_NVPTX_PTXCOMPILER_H
#define XSTITCH_BACKENDS_NVPTX_PTXCOMPILER_H

// LLVM IR -> PTX in process, through LLVM's NVPTX backend. A module is
// verified, optimized for the architecture (-O3 by default) and printed as
// PTX text, which the CUDA driver compiles for the GPU it runs on
// (cuModuleLoadDataEx) or ptxas assembles ahead of time. Needs no GPU and no
// CUDA. Thread-safe: only the registration of the NVPTX target is shared.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

namespace xs {

/// The triple of every NVIDIA kernel module (64-bit pointers).
inline constexpr const char *kNvptxTriple = "nvptx64-nvidia-cuda";

struct PtxOptions {
  std::string arch = "sm_90"; // a preset of NvidiaTargetDescription.h
  int optLevel = 3;
};

/// The target machine for `arch`, with the PTX ISA version it needs. An
/// unknown arch is an InvalidArgument error listing the known ones.
absl::StatusOr<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const PtxOptions &options);

/// Verifies, optimizes and prints `module` as PTX for `options.arch`,
/// setting the module's triple and data layout. Functions with the
/// PTX_Kernel calling convention become `.entry` kernels.
absl::StatusOr<std::string> compileToPtx(llvm::Module &module, const PtxOptions &options);

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_PTXCOMPILER_H
