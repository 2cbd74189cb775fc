#include "backends/common/SimtLowering.h"

#include <map>
#include <set>

#include "backends/common/KernelABI.h"
#include "backends/common/SimtABI.h"
#include "backends/common/SimtTarget.h"
#include "ir/Diagnostics.h"
#include "llvm/IR/InstIterator.h"
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

/// Attributes of the GPU's code generation that mean nothing on the host.
void removeDeviceAttributes(llvm::Function &function) {
  std::vector<std::string> names;
  for (const llvm::Attribute &attribute : function.getAttributes().getFnAttrs())
    if (attribute.isStringAttribute()) {
      llvm::StringRef kind = attribute.getKindAsString();
      if (kind.starts_with("amdgpu-") || kind == "uniform-work-group-size" ||
          kind == "target-cpu" || kind == "target-features")
        names.push_back(kind.str());
    }
  for (const std::string &name : names)
    function.removeFnAttr(name);
}

class KernelLowering {
public:
  KernelLowering(llvm::Module &module, const SharedLayout &shared, const SimtDialect &dialect)
      : module_(module), context_(module.getContext()), shared_(shared), dialect_(dialect) {
    llvm::Type *i64 = llvm::Type::getInt64Ty(context_);
    ptr_ = llvm::PointerType::getUnqual(context_);
    laneContext_ = llvm::StructType::get(
        context_, {i64, i64, i64, ptr_, ptr_, ptr_, ptr_, i64, ptr_, ptr_, ptr_});
  }

  absl::Status lower(const SimtKernel &kernel) {
    llvm::Function *original = module_.getFunction(kernel.function);
    if (original == nullptr || original->isDeclaration())
      return absl::InternalError(
          strCat(dialect_.name, " simulation: the module has no kernel ", kernel.function));
    llvm::Type *i64 = llvm::Type::getInt64Ty(context_);
    auto *laneType =
        llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {ptr_, ptr_, i64, ptr_}, false);
    llvm::Function *lane = llvm::Function::Create(laneType, llvm::GlobalValue::InternalLinkage,
                                                  kernel.symbol + kSimtLaneSuffix, module_);
    // Its device attributes go with every other function's at the end.
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
    llvm::Type *i32 = b.getInt32Ty();
    SimtLane values;
    values.context = context;
    values.laneId = field(kSimtLaneId, i64, "simt.tid");
    values.laneCount = field(kSimtLaneCount, i64, "simt.ntid");
    values.blockId = field(kSimtBlockId, i64, "simt.ctaid");
    llvm::Value *shared = field(kSimtShared, ptr_, "simt.shared");
    values.barrier = llvm::FunctionCallee(llvm::FunctionType::get(b.getVoidTy(), {ptr_}, false),
                                          field(kSimtBarrier, ptr_, "simt.barrier"));
    values.shuffleXor =
        llvm::FunctionCallee(llvm::FunctionType::get(i32, {ptr_, i32, i32, i32, i32}, false),
                             field(kSimtShuffleXor, ptr_, "simt.shfl"));
    values.blockCount = field(kSimtBlockCount, i64, "simt.nctaid");
    llvm::Value *gridBarrier = field(kSimtGridBarrier, ptr_, "simt.grid.barrier");
    values.shuffleIndex =
        llvm::FunctionCallee(llvm::FunctionType::get(i32, {ptr_, i32, i32}, false),
                             field(kSimtShuffleIndex, ptr_, "simt.bpermute"));
    values.dispatchPacket = field(kSimtDispatchPacket, ptr_, "simt.packet");

    for (const auto &[global, offset] : shared_.offsets) {
      llvm::Value *address = b.CreateAddrSpaceCast(
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), shared, static_cast<uint64_t>(offset)),
          global->getType(), global->getName() + ".simt");
      global->replaceUsesWithIf(address, [&](llvm::Use &use) {
        auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
        return user != nullptr && user->getFunction() == &lane;
      });
    }

    std::vector<llvm::IntrinsicInst *> calls;
    std::vector<llvm::CallInst *> gridBarriers;
    std::vector<llvm::Instruction *> fences;
    std::vector<llvm::AllocaInst *> allocas;
    for (llvm::Instruction &instruction : llvm::instructions(lane)) {
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
        calls.push_back(call);
      else if (auto *other = llvm::dyn_cast<llvm::CallInst>(&instruction);
               other != nullptr && other->getCalledFunction() != nullptr &&
               other->getCalledFunction()->getName() == kGridBarrierFunction)
        gridBarriers.push_back(other);
      else if (llvm::isa<llvm::FenceInst>(instruction))
        fences.push_back(&instruction);
      else if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
               alloca != nullptr && alloca->getAddressSpace() != 0)
        allocas.push_back(alloca);
    }
    for (llvm::CallInst *call : gridBarriers) {
      b.SetInsertPoint(call);
      b.CreateCall(values.barrier.getFunctionType(), gridBarrier, {context});
      call->eraseFromParent();
    }
    // A block's threads are coroutines of one host thread.
    for (llvm::Instruction *fence : fences)
      fence->eraseFromParent();
    // The GPU's private address space is the host's stack.
    for (llvm::AllocaInst *alloca : allocas) {
      b.SetInsertPoint(alloca);
      llvm::AllocaInst *host =
          b.CreateAlloca(alloca->getAllocatedType(), 0, alloca->getArraySize(), alloca->getName());
      host->setAlignment(alloca->getAlign());
      alloca->replaceAllUsesWith(b.CreateAddrSpaceCast(host, alloca->getType()));
      alloca->eraseFromParent();
    }
    for (llvm::IntrinsicInst *call : calls) {
      if (!call->getCalledFunction()->getName().starts_with(dialect_.intrinsicPrefix))
        continue;
      b.SetInsertPoint(call);
      llvm::Value *replacement = nullptr;
      if (!dialect_.lower(call, b, values, replacement))
        return absl::InternalError(strCat(
            dialect_.name, " simulation: kernel ", lane.getName().str(), " calls ",
            call->getCalledFunction()->getName().str(), ", which the simulation does not model"));
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
        llvm::FunctionType::get(b.getVoidTy(), {ptr_, ptr_, ptr_, i64, i64, i64, i64, i64}, false);
    llvm::FunctionCallee run = module_.getOrInsertFunction(
        kernel.cooperative ? kSimtRunGridSymbol : kSimtRunBlocksSymbol, runType);
    b.CreateCall(run, {lane, host->getArg(kCpuBuffersArg), host->getArg(kCpuDimsArg),
                       host->getArg(kCpuBlockBeginArg), host->getArg(kCpuBlockEndArg),
                       b.getInt64(kernel.lanes),
                       b.getInt64(shared_.staticBytes + kernel.dynamicSharedBytes),
                       b.getInt64(dialect_.warpWidth)});
    b.CreateRetVoid();
  }

  llvm::Module &module_;
  llvm::LLVMContext &context_;
  const SharedLayout &shared_;
  const SimtDialect &dialect_;
  llvm::PointerType *ptr_;
  llvm::StructType *laneContext_;
};

} // namespace

std::vector<SimtKernel> simtKernelsOf(const ProgramPlan &program,
                                      std::string (*functionName)(std::string_view symbol),
                                      int64_t sharedLimit) {
  // Steps that run another kernel's code (the same plan but for names)
  // name its symbols again.
  std::vector<SimtKernel> kernels;
  std::set<std::string> seen;
  auto sharedBytes = [&](const DimExpr &bytes) {
    return bytes.constantValue().value_or(sharedLimit);
  };
  for (const HostStep &step : program.host.steps) {
    if (step.kind != HostStep::Kind::Launch)
      continue;
    for (const HostLaunchVariant &variant : step.variants) {
      for (int phase = 0; phase < variant.phases; ++phase)
        if (std::string symbol = phaseSymbol(variant.symbol, phase); seen.insert(symbol).second)
          kernels.push_back({symbol, functionName(symbol), variant.lanes,
                             sharedBytes(variant.blockBufferBytes(phase)),
                             /*cooperative=*/false});
      if (std::string symbol = cooperativeSymbol(variant.symbol);
          variant.cooperative && seen.insert(symbol).second)
        kernels.push_back({symbol, functionName(symbol), variant.lanes,
                           sharedBytes(variant.totalBlockBufferBytes()),
                           /*cooperative=*/true});
    }
  }
  return kernels;
}

absl::Status lowerSimtForHost(llvm::Module &module, const std::vector<SimtKernel> &kernels,
                              const SimtDialect &dialect) {
  SharedLayout shared = layOutShared(module);
  std::vector<llvm::Constant *> globals;
  for (const auto &[global, offset] : shared.offsets)
    globals.push_back(global);
  // Shared arrays used inside constant expressions become instructions, so
  // that each function can point them at its block's memory.
  llvm::convertUsersOfConstantsToInstructions(globals);
  KernelLowering lowering(module, shared, dialect);
  for (const SimtKernel &kernel : kernels)
    XS_RETURN_IF_ERROR(lowering.lower(kernel));

  for (const auto &[global, offset] : shared.offsets) {
    if (!global->use_empty())
      return absl::InternalError(strCat(dialect.name, " simulation: shared array ",
                                        global->getName().str(),
                                        " is used outside the kernels lowered"));
    global->eraseFromParent();
  }
  // The grid barrier's own body (atomics, fences) is the GPU's: the lane
  // scheduler stands in for it.
  if (llvm::Function *gridBarrier = module.getFunction(kGridBarrierFunction)) {
    if (!gridBarrier->use_empty())
      return absl::InternalError(strCat(dialect.name,
                                        " simulation: the grid barrier is called outside the "
                                        "kernels lowered"));
    gridBarrier->eraseFromParent();
  }
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty())
      function.eraseFromParent();
  for (llvm::Function &function : module) {
    if (function.getCallingConv() == dialect.kernelCallingConv)
      return absl::InternalError(strCat(dialect.name, " simulation: kernel ",
                                        function.getName().str(), " is not in the plan"));
    removeDeviceAttributes(function);
  }
  if (llvm::NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(annotations);
  return absl::OkStatus();
}

} // namespace xs
