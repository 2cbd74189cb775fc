#ifndef XSTITCH_BACKENDS_COMMON_SIMTLOWERING_H
#define XSTITCH_BACKENDS_COMMON_SIMTLOWERING_H

// Rewrites a module of GPU kernels, as the common emitter wrote them with a
// SimtTarget, into host code that runs each block's threads through the
// lane scheduler (SimtABI.h): the SIMT simulations, which let CPU-only
// machines run and check the code generated for NVIDIA and AMD GPUs (thread
// mapping, shared memory, barriers, cross-lane shuffles, grid barriers)
// against the interpreter. The vendor's dialect (SimtDialect) says how its
// intrinsics read and call the lane's context; any other intrinsic of the
// vendor is an internal error. Fences go (a block's threads run on one host
// thread), shared memory (address space 3) becomes the lane's, stack
// arrays move to the host's stack. The vendor's code generation itself is
// not exercised (ptxas and code-object tests are).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ir/HostPlan.h"
#include "transforms/PlanProgram.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

namespace xs {

/// One kernel function of the module: `symbol` is its plan symbol (a phase's
/// symbol, ir/HostPlan.h), `function` its name in the GPU module, and
/// `lanes` the threads of its blocks (HostLaunchVariant::lanes);
/// `dynamicSharedBytes` the most dynamic shared memory a block uses
/// (HostLaunchVariant::blockBufferBytes() of its phase, or the total for a
/// cooperative kernel, where it is a constant, else the GPU's limit).
struct SimtKernel {
  std::string symbol;
  std::string function;
  int64_t lanes = 0;
  int64_t dynamicSharedBytes = 0;
  /// A cooperative kernel (cooperativeSymbol()): run by kSimtRunGridSymbol.
  bool cooperative = false;
};

/// Every kernel function `program` launches, each once: `functionName`
/// gives a plan symbol's name in the GPU module, `sharedLimit` the dynamic
/// shared memory of a kernel whose use is not a constant.
std::vector<SimtKernel> simtKernelsOf(const ProgramPlan &program,
                                      std::string (*functionName)(std::string_view symbol),
                                      int64_t sharedLimit);

/// What a lane function has of its context, for a dialect's intrinsics.
struct SimtLane {
  llvm::Value *context = nullptr;
  llvm::Value *laneId = nullptr;     // i64
  llvm::Value *laneCount = nullptr;  // i64
  llvm::Value *blockId = nullptr;    // i64
  llvm::Value *blockCount = nullptr; // i64
  llvm::Value *dispatchPacket = nullptr;
  llvm::FunctionCallee barrier;      // SimtBarrierFn
  llvm::FunctionCallee shuffleXor;   // SimtShuffleXorFn
  llvm::FunctionCallee shuffleIndex; // SimtShuffleIndexFn
};

struct SimtDialect {
  std::string_view name;            // for messages: "NVPTX", "AMDGPU"
  std::string_view intrinsicPrefix; // the vendor's intrinsics: "llvm.nvvm."
  llvm::CallingConv::ID kernelCallingConv;
  int64_t warpWidth = 32;
  /// Lowers `call` (one of the vendor's intrinsics) at `b`: true with its
  /// replacement (null where the call only goes), false for an intrinsic
  /// the simulation does not model.
  bool (*lower)(llvm::IntrinsicInst *call, llvm::IRBuilder<> &b, const SimtLane &lane,
                llvm::Value *&replacement);
};

/// Lowers every kernel of `kernels` in place: the module's triple and data
/// layout are left to the host compilation.
absl::Status lowerSimtForHost(llvm::Module &module, const std::vector<SimtKernel> &kernels,
                              const SimtDialect &dialect);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_SIMTLOWERING_H
