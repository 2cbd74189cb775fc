#include "backends/nvptx/SimtLowering.h"

#include <map>

#include "backends/common/KernelABI.h"
#include "backends/nvptx/NvptxTarget.h"
#include "backends/nvptx/SimtABI.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/ReplaceConstant.h"

namespace xs {
namespace {

constexpr unsigned kSharedSpace = 3;
constexpr int64_t kSharedAlignment = 16;

int64_t roundUp(int64_t value, int64_t to) { return (value + to - 1) / to * to; }

/// Offsets of the module's shared arrays in a block's shared memory: the
/// sized ones first, then the dynamic one (an external array of 0 bytes).
struct SharedLayout {
  std::map<llvm::GlobalVariable *, int64_t> offsets;
  int64_t staticBytes = 0;
};

SharedLayout layOutShared(llvm::Module &module) {
  SharedLayout layout;
  std::vector<llvm::GlobalVariable *> dynamic;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != kSharedSpace)
      continue;
    if (global.isDeclaration()) {
      dynamic.push_back(&global);
      continue;
    }
    layout.offsets[&global] = layout.staticBytes;
    int64_t size =
        static_cast<int64_t>(module.getDataLayout().getTypeAllocSize(global.getValueType()));
    layout.staticBytes += roundUp(size, kSharedAlignment);
  }
  for (llvm::GlobalVariable *global : dynamic)
    layout.offsets[global] = layout.staticBytes;
  return layout;
}

class KernelLowering {
public:
  KernelLowering(llvm::Module &module, const SharedLayout &shared)
      : module_(module), context_(module.getContext()), shared_(shared) {
    llvm::Type *i64 = llvm::Type::getInt64Ty(context_);
    ptr_ = llvm::PointerType::getUnqual(context_);
    laneContext_ =
        llvm::StructType::get(context_, {i64, i64, i64, ptr_, ptr_, ptr_, ptr_, i64, ptr_});
  }

  absl::Status lower(const SimtKernel &kernel) {
    std::string nvptxName = nvptxSymbol(kernel.symbol);
    llvm::Function *original = module_.getFunction(nvptxName);
    if (original == nullptr || original->isDeclaration())
      return absl::InternalError(strCat("NVPTX simulation: the module has no kernel ", nvptxName));
    llvm::Type *i64 = llvm::Type::getInt64Ty(context_);
    auto *laneType =
        llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {ptr_, ptr_, i64, ptr_}, false);
    llvm::Function *lane = llvm::Function::Create(laneType, llvm::GlobalValue::InternalLinkage,
                                                  kernel.symbol + kSimtLaneSuffix, module_);
    lane->copyAttributesFrom(original);
    lane->setCallingConv(llvm::CallingConv::C);
    lane->setDSOLocal(true);
    lane->splice(lane->end(), original);
    for (unsigned i = 0; i < original->arg_size(); ++i) {
      lane->getArg(i)->takeName(original->getArg(i));
      original->getArg(i)->replaceAllUsesWith(lane->getArg(i));
    }
    lane->getArg(3)->setName("lane");
    XS_RETURN_IF_ERROR(rewriteBody(*lane));

    original->setName("");
    original->eraseFromParent();
    emitHostKernel(kernel, lane);
    return absl::OkStatus();
  }

private:
  absl::Status rewriteBody(llvm::Function &lane) {
    llvm::IRBuilder<> b(&*lane.getEntryBlock().getFirstInsertionPt());
    llvm::Value *context = lane.getArg(3);
    auto field = [&](SimtLaneField index, llvm::Type *type, const char *name) {
      return b.CreateLoad(type, b.CreateStructGEP(laneContext_, context, index), name);
    };
    llvm::Type *i64 = b.getInt64Ty();
    llvm::Value *laneId = field(kSimtLaneId, i64, "simt.tid");
    llvm::Value *laneCount = field(kSimtLaneCount, i64, "simt.ntid");
    llvm::Value *blockId = field(kSimtBlockId, i64, "simt.ctaid");
    llvm::Value *shared = field(kSimtShared, ptr_, "simt.shared");
    llvm::Value *barrier = field(kSimtBarrier, ptr_, "simt.barrier");
    llvm::Value *shuffle = field(kSimtShuffleXor, ptr_, "simt.shfl");
    llvm::Value *blockCount = field(kSimtBlockCount, i64, "simt.nctaid");
    llvm::Value *gridBarrier = field(kSimtGridBarrier, ptr_, "simt.grid.barrier");

    for (const auto &[global, offset] : shared_.offsets) {
      llvm::Value *address = b.CreateAddrSpaceCast(
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), shared, static_cast<uint64_t>(offset)),
          global->getType(), global->getName() + ".simt");
      global->replaceUsesWithIf(address, [&](llvm::Use &use) {
        auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
        return user != nullptr && user->getFunction() == &lane;
      });
    }

    auto *barrierType = llvm::FunctionType::get(b.getVoidTy(), {ptr_}, false);
    llvm::Type *i32 = b.getInt32Ty();
    auto *shuffleType = llvm::FunctionType::get(i32, {ptr_, i32, i32, i32, i32}, false);
    std::vector<llvm::IntrinsicInst *> calls;
    std::vector<llvm::CallInst *> gridBarriers;
    for (llvm::Instruction &instruction : llvm::instructions(lane))
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
        calls.push_back(call);
      else if (auto *other = llvm::dyn_cast<llvm::CallInst>(&instruction);
               other != nullptr && other->getCalledFunction() != nullptr &&
               other->getCalledFunction()->getName() == kGridBarrierFunction)
        gridBarriers.push_back(other);
    for (llvm::CallInst *call : gridBarriers) {
      b.SetInsertPoint(call);
      b.CreateCall(barrierType, gridBarrier, {context});
      call->eraseFromParent();
    }
    for (llvm::IntrinsicInst *call : calls) {
      b.SetInsertPoint(call);
      llvm::Value *replacement = nullptr;
      switch (call->getIntrinsicID()) {
      case llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x:
        replacement = b.CreateTrunc(laneId, i32);
        break;
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
        replacement = b.CreateTrunc(laneCount, i32);
        break;
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
        replacement = b.CreateTrunc(blockId, i32);
        break;
      case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
        replacement = b.CreateTrunc(blockCount, i32);
        break;
      case llvm::Intrinsic::nvvm_barrier0:
        b.CreateCall(barrierType, barrier, {context});
        break;
      case llvm::Intrinsic::nvvm_shfl_sync_bfly_i32:
        replacement = b.CreateCall(shuffleType, shuffle,
                                   {context, call->getArgOperand(0), call->getArgOperand(1),
                                    call->getArgOperand(2), call->getArgOperand(3)});
        break;
      default:
        if (call->getCalledFunction()->getName().starts_with("llvm.nvvm."))
          return absl::InternalError(strCat("NVPTX simulation: kernel ", lane.getName().str(),
                                            " calls ", call->getCalledFunction()->getName().str(),
                                            ", which the simulation does not model"));
        continue;
      }
      if (replacement != nullptr)
        call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
    return absl::OkStatus();
  }

  /// The CPU kernel (KernelABI.h) under the plan's symbol: its blocks run on
  /// the lane scheduler.
  void emitHostKernel(const SimtKernel &kernel, llvm::Function *lane) {
    llvm::Type *i64 = llvm::Type::getInt64Ty(context_);
    auto *hostType = llvm::FunctionType::get(llvm::Type::getVoidTy(context_),
                                             {ptr_, ptr_, i64, i64, i64}, false);
    llvm::Function *host = llvm::Function::Create(hostType, llvm::GlobalValue::ExternalLinkage,
                                                  kernel.symbol, module_);
    host->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context_, "entry", host));
    auto *runType =
        llvm::FunctionType::get(b.getVoidTy(), {ptr_, ptr_, ptr_, i64, i64, i64, i64}, false);
    llvm::FunctionCallee run = module_.getOrInsertFunction(
        kernel.cooperative ? kSimtRunGridSymbol : kSimtRunBlocksSymbol, runType);
    b.CreateCall(run, {lane, host->getArg(kCpuBuffersArg), host->getArg(kCpuDimsArg),
                       host->getArg(kCpuBlockBeginArg), host->getArg(kCpuBlockEndArg),
                       b.getInt64(kernel.lanes),
                       b.getInt64(shared_.staticBytes + kernel.dynamicSharedBytes)});
    b.CreateRetVoid();
  }

  llvm::Module &module_;
  llvm::LLVMContext &context_;
  const SharedLayout &shared_;
  llvm::PointerType *ptr_;
  llvm::StructType *laneContext_;
};

} // namespace

absl::Status lowerNvptxForHost(llvm::Module &module, const std::vector<SimtKernel> &kernels) {
  SharedLayout shared = layOutShared(module);
  std::vector<llvm::Constant *> globals;
  for (const auto &[global, offset] : shared.offsets)
    globals.push_back(global);
  // Shared arrays used inside constant expressions become instructions, so
  // that each function can point them at its block's memory.
  llvm::convertUsersOfConstantsToInstructions(globals);
  KernelLowering lowering(module, shared);
  for (const SimtKernel &kernel : kernels)
    XS_RETURN_IF_ERROR(lowering.lower(kernel));

  for (const auto &[global, offset] : shared.offsets) {
    if (!global->use_empty())
      return absl::InternalError(strCat("NVPTX simulation: shared array ", global->getName().str(),
                                        " is used outside the kernels lowered"));
    global->eraseFromParent();
  }
  // The grid barrier's own body (atomics, fences) is the GPU's: the lane
  // scheduler stands in for it.
  if (llvm::Function *gridBarrier = module.getFunction(kGridBarrierFunction)) {
    if (!gridBarrier->use_empty())
      return absl::InternalError(
          "NVPTX simulation: the grid barrier is called outside the kernels lowered");
    gridBarrier->eraseFromParent();
  }
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty())
      function.eraseFromParent();
  for (llvm::Function &function : module)
    if (function.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      return absl::InternalError(
          strCat("NVPTX simulation: kernel ", function.getName().str(), " is not in the plan"));
  if (llvm::NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(annotations);
  return absl::OkStatus();
}

} // namespace xs
