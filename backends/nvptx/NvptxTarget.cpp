#include "backends/nvptx/NvptxTarget.h"

#include "backends/common/KernelABI.h"
#include "backends/nvptx/PtxCompiler.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace xs {

namespace {

constexpr int kWarp = 32;

llvm::Value *sreg(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id) {
  return b.CreateZExt(b.CreateIntrinsic(id, {}, {}), b.getInt64Ty());
}

} // namespace

std::string NvptxTarget::triple() const { return kNvptxTriple; }

llvm::Function *NvptxTarget::createKernel(llvm::Module &module, const std::string &symbol,
                                          int64_t blockLanes, llvm::IRBuilder<> &b) {
  return beginKernel(module, nvptxSymbol(symbol), llvm::CallingConv::PTX_Kernel, blockLanes, b);
}

llvm::Value *NvptxTarget::launchBlockId(llvm::IRBuilder<> &b) {
  return sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
}

llvm::Value *NvptxTarget::launchBlockCount(llvm::IRBuilder<> &b) {
  return sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
}

llvm::Value *NvptxTarget::launchLanes(llvm::IRBuilder<> &b) {
  return sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
}

llvm::Value *NvptxTarget::laneId(llvm::IRBuilder<> &b) {
  return sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
}

void NvptxTarget::emitBlockBarrier(llvm::IRBuilder<> &b) {
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

void NvptxTarget::emitGlobalFence(llvm::IRBuilder<> &b) {
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
}

llvm::Value *NvptxTarget::shuffleXorWord(llvm::IRBuilder<> &b, llvm::Value *word, int laneMask) {
  return b.CreateIntrinsic(
      llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
      {b.getInt32(0xffffffffu), word, b.getInt32(laneMask), b.getInt32(kWarp - 1)});
}

} // namespace xs
