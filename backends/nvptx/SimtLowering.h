#ifndef XSTITCH_BACKENDS_NVPTX_SIMTLOWERING_H
#define XSTITCH_BACKENDS_NVPTX_SIMTLOWERING_H

// Rewrites a module of NVPTX kernels, as the common emitter wrote them with
// an NvptxTarget, into host code that runs each block's threads through the
// lane scheduler (SimtABI.h): the NVPTX simulation, which lets CPU-only
// machines run and check the code generated for NVIDIA GPUs (thread mapping,
// shared memory, barriers, warp shuffles, grid barriers) against the
// interpreter. Only what the NVPTX target emits is modelled: tid.x, ntid.x,
// ctaid.x, nctaid.x, bar.sync, shfl.sync.bfly.b32, the grid barrier
// function (kGridBarrierFunction) and address space 3; any other NVVM
// intrinsic is an internal error. PTX code generation itself is not exercised (ptxas tests
// are).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "llvm/IR/Module.h"

namespace xs {

/// One kernel function of the module: `symbol` is its plan symbol (a phase's
/// symbol, ir/HostPlan.h; the NVPTX function is nvptxSymbol(symbol)) and
/// `lanes` the threads of its blocks (HostLaunchVariant::lanes);
/// `dynamicSharedBytes` the most dynamic shared memory a block uses
/// (HostLaunchVariant::blockBufferBytes() of its phase, or the total for a
/// cooperative kernel, where it is a constant, else the
/// GPU's opt-in limit).
struct SimtKernel {
  std::string symbol;
  int64_t lanes = 0;
  int64_t dynamicSharedBytes = 0;
  /// A cooperative kernel (cooperativeSymbol()): run by kSimtRunGridSymbol.
  bool cooperative = false;
};

/// Lowers every kernel of `kernels` in place: the module's triple and data
/// layout are left to the host compilation.
absl::Status lowerNvptxForHost(llvm::Module &module, const std::vector<SimtKernel> &kernels);

} // namespace xs

#endif // XSTITCH_BACKENDS_NVPTX_SIMTLOWERING_H
