#include "backends/common/SimtTarget.h"

#include <algorithm>
#include <cassert>

#include "backends/common/KernelABI.h"
#include "backends/common/LoopBuilder.h"

namespace xs {

namespace {

constexpr unsigned kGlobalSpace = 1;
constexpr unsigned kSharedSpace = 3;
constexpr int64_t kSharedAlignment = 16;
/// Partial results of a cross-lane reduction, one slot per warp (at most
/// 1024 threads of a block), each wide enough for any scalar of up to 64
/// bits. (PTX identifiers take no '.'.)
constexpr const char *kReduceSlots = "xs_reduce_slots";
constexpr const char *kDynamicShared = "xs_shared";

llvm::GlobalVariable *sharedArray(llvm::Module &module, const char *name, uint64_t bytes,
                                  bool external) {
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  llvm::Type *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), bytes);
  auto *global = new llvm::GlobalVariable(module, type, false,
                                          external ? llvm::GlobalValue::ExternalLinkage
                                                   : llvm::GlobalValue::InternalLinkage,
                                          external ? nullptr : llvm::UndefValue::get(type), name,
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedSpace);
  global->setAlignment(llvm::Align(kSharedAlignment));
  return global;
}

int64_t log2Of(int64_t power) {
  int64_t bits = 0;
  while ((int64_t{1} << bits) < power)
    ++bits;
  return bits;
}

} // namespace

llvm::Function *SimtTarget::beginKernel(llvm::Module &module, const std::string &name,
                                        llvm::CallingConv::ID callingConv, int64_t blockLanes,
                                        llvm::IRBuilder<> &b) {
  blockLanes_ = blockLanes;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {ptr, ptr, llvm::Type::getInt64Ty(context)}, false);
  kernel_ = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
  kernel_->setCallingConv(callingConv);
  kernel_->addFnAttr(llvm::Attribute::NoUnwind);
  const char *names[] = {"buffers", "dims", "blockBegin"};
  for (unsigned i = 0; i < 3; ++i)
    kernel_->getArg(i)->setName(names[i]);
  markArgumentArrays(kernel_);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", kernel_));
  sharedOffset_ = b.getInt64(0);
  return kernel_;
}

void SimtTarget::emitBlockLoop(llvm::IRBuilder<> &b,
                               const std::function<void(llvm::Value *blockId)> &body) {
  body(b.CreateAdd(kernel_->getArg(2), launchBlockId(b), "block"));
}

llvm::Value *SimtTarget::bufferArg(llvm::IRBuilder<> &b, int index) {
  // Buffers are global memory with the ABI's alignment: loaded as global
  // pointers that LLVM knows are aligned, then made generic for the emitter.
  // Address-space inference then turns their accesses into global loads and
  // stores, and runs of elements at aligned positions into vectors.
  llvm::LLVMContext &context = b.getContext();
  llvm::LoadInst *pointer = loadBufferPointer(b, kernel_->getArg(0), index,
                                              llvm::PointerType::get(context, kGlobalSpace));
  pointer->setMetadata(
      llvm::LLVMContext::MD_align,
      llvm::MDNode::get(context, llvm::ConstantAsMetadata::get(
                                     b.getInt64(static_cast<uint64_t>(kGpuBufferAlignment)))));
  return b.CreateAddrSpaceCast(pointer, b.getPtrTy());
}

llvm::Value *SimtTarget::dimArg(llvm::IRBuilder<> &b, int index) {
  return loadDim(b, kernel_->getArg(1), index);
}

llvm::Value *SimtTarget::dimSlot(llvm::IRBuilder<> &b, int index) {
  return b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), kernel_->getArg(1), index);
}

llvm::Value *SimtTarget::laneCount(llvm::IRBuilder<> &b) {
  // A known block size is a constant: loops over a row's columns get trip
  // counts LLVM can unroll, issuing several loads before their uses, and
  // divisions by it become shifts. (Never 1: a constant 1 means the CPU's
  // one lane to the emitter.)
  if (blockLanes_ > 1)
    return b.getInt64(blockLanes_);
  return launchLanes(b);
}

void SimtTarget::emitGridStrideLoop(llvm::IRBuilder<> &b, llvm::Value *grid,
                                    const std::function<void(llvm::Value *blockId)> &body) {
  emitStridedLoop(
      b, launchBlockId(b), grid, launchBlockCount(b), {},
      [&](llvm::Value *blockId, llvm::ArrayRef<llvm::Value *>) {
        body(blockId);
        // The next block's stages reuse the block buffers.
        emitBlockBarrier(b);
        return std::vector<llvm::Value *>{};
      },
      "grid");
}

void SimtTarget::emitGridBarrier(llvm::IRBuilder<> &b, int barrierArg) {
  b.CreateCall(gridBarrierFunction(*kernel_->getParent()),
               {kernel_->getArg(0), b.getInt64(barrierArg)});
}

llvm::Function *SimtTarget::gridBarrierFunction(llvm::Module &module) {
  if (llvm::Function *existing = module.getFunction(kGridBarrierFunction))
    return existing;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {llvm::PointerType::getUnqual(context), i64}, false);
  llvm::Function *function = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                                    kGridBarrierFunction, module);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  function->addFnAttr(llvm::Attribute::AlwaysInline);
  auto block = [&](const char *name) { return llvm::BasicBlock::Create(context, name, function); };
  llvm::BasicBlock *entry = block("entry"), *leader = block("leader"), *spin = block("spin"),
                   *arrived = block("arrived"), *done = block("done");
  // The scheme of CUDA's grid sync: thread 0 of each block adds 1 to the
  // launch's word, block 0 adds 2^31 - (blocks - 1) instead, so that the
  // word's top bit flips when the last block arrives; each waits for the
  // flip. The word needs no reset between barriers or launches, only to
  // start as any value every block sees (the runtime zeroes it).
  llvm::IRBuilder<> b(entry);
  emitBlockBarrier(b);
  b.CreateCondBr(b.CreateICmpEQ(laneId(b), b.getInt64(0)), leader, done);

  b.SetInsertPoint(leader);
  llvm::Value *word = b.CreateLoad(
      llvm::PointerType::get(context, kGlobalSpace),
      b.CreateInBoundsGEP(b.getPtrTy(), function->getArg(0), function->getArg(1)), "barrier.word");
  llvm::Value *blocks = b.CreateTrunc(launchBlockCount(b), b.getInt32Ty());
  llvm::Value *first = b.CreateICmpEQ(launchBlockId(b), b.getInt64(0));
  llvm::Value *add = b.CreateSelect(
      first, b.CreateSub(b.getInt32(0x80000000u), b.CreateSub(blocks, b.getInt32(1))),
      b.getInt32(1), "barrier.add");
  // What this block wrote is visible to every block before it arrives.
  emitGlobalFence(b);
  llvm::Value *old = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, word, add, llvm::MaybeAlign(4),
                                       llvm::AtomicOrdering::Monotonic);
  b.CreateBr(spin);

  b.SetInsertPoint(spin);
  llvm::LoadInst *current = b.CreateAlignedLoad(b.getInt32Ty(), word, llvm::Align(4),
                                                /*isVolatile=*/true, "barrier.now");
  llvm::Value *flipped = b.CreateICmpNE(
      b.CreateAnd(b.CreateXor(old, current), b.getInt32(0x80000000u)), b.getInt32(0));
  b.CreateCondBr(flipped, arrived, spin);

  b.SetInsertPoint(arrived);
  // Every block's writes before the barrier are visible after it.
  emitGlobalFence(b);
  b.CreateBr(done);

  b.SetInsertPoint(done);
  emitBlockBarrier(b);
  b.CreateRetVoid();
  return function;
}

llvm::Value *SimtTarget::allocateBlockBuffer(llvm::IRBuilder<> &b, llvm::Type *elementType,
                                             llvm::Value *elements) {
  llvm::Module &module = *kernel_->getParent();
  llvm::GlobalVariable *shared = sharedArray(module, kDynamicShared, 0, /*external=*/true);
  llvm::Value *base = b.CreateInBoundsGEP(b.getInt8Ty(), shared, sharedOffset_);
  uint64_t size = module.getDataLayout().getTypeAllocSize(elementType);
  llvm::Value *bytes = b.CreateMul(elements, b.getInt64(static_cast<int64_t>(size)));
  llvm::Value *rounded = b.CreateAnd(b.CreateAdd(bytes, b.getInt64(kSharedAlignment - 1)),
                                     b.getInt64(-kSharedAlignment));
  sharedOffset_ = b.CreateAdd(sharedOffset_, rounded, "shared.bytes");
  return b.CreateAddrSpaceCast(base, b.getPtrTy());
}

llvm::Value *SimtTarget::shuffleXor(llvm::IRBuilder<> &b, llvm::Value *value, int laneMask) {
  llvm::Type *type = value->getType();
  unsigned bits = type->getPrimitiveSizeInBits();
  assert(bits > 0 && bits <= 64 && "cross-lane reductions take scalars of up to 64 bits");
  llvm::Value *asInt = type->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(bits));
  llvm::Value *shuffled;
  if (bits <= 32) {
    shuffled = b.CreateTrunc(shuffleXorWord(b, b.CreateZExt(asInt, b.getInt32Ty()), laneMask),
                             b.getIntNTy(bits));
  } else {
    llvm::Value *low = shuffleXorWord(b, b.CreateTrunc(asInt, b.getInt32Ty()), laneMask);
    llvm::Value *high =
        shuffleXorWord(b, b.CreateTrunc(b.CreateLShr(asInt, 32), b.getInt32Ty()), laneMask);
    shuffled = b.CreateOr(b.CreateZExt(low, b.getInt64Ty()),
                          b.CreateShl(b.CreateZExt(high, b.getInt64Ty()), 32));
    shuffled = b.CreateTrunc(shuffled, b.getIntNTy(bits));
  }
  return type->isIntegerTy() ? shuffled : b.CreateBitCast(shuffled, type);
}

std::vector<llvm::Value *> SimtTarget::warpReduce(llvm::IRBuilder<> &b,
                                                  std::vector<llvm::Value *> state,
                                                  const LaneCombine &combine) {
  const int warp = static_cast<int>(description_.warpWidth);
  std::vector<int> laneMasks;
  for (int laneMask = 1; laneMask < warp; laneMask *= 2)
    laneMasks.push_back(laneMask);
  if (!butterfliesAscend())
    std::reverse(laneMasks.begin(), laneMasks.end());
  for (int laneMask : laneMasks) {
    std::vector<llvm::Value *> other;
    for (llvm::Value *value : state)
      other.push_back(shuffleXor(b, value, laneMask));
    state = combine(b, state, other);
  }
  return state;
}

std::vector<llvm::Value *> SimtTarget::emitCrossLaneReduce(llvm::IRBuilder<> &b,
                                                           llvm::ArrayRef<llvm::Value *> state,
                                                           const LaneCombine &combine) {
  assert(!state.empty() && state.size() <= kMaxLaneStateValues);
  // Lanes of a warp first; then lane 0 of each warp leaves its warp's state
  // in its slots and every lane combines the slots in warp order, so all
  // lanes get the same bits. Blocks are whole warps (gpuTargetDescription).
  std::vector<llvm::Value *> warpState = warpReduce(b, state.vec(), combine);
  int64_t warp = description_.warpWidth;
  llvm::Module &module = *kernel_->getParent();
  llvm::GlobalVariable *slots = sharedArray(
      module, kReduceSlots, static_cast<uint64_t>(8 * kMaxLaneStateValues * (1024 / warp)),
      /*external=*/false);
  llvm::Value *lane = laneId(b);
  llvm::Value *warpId = b.CreateLShr(lane, log2Of(warp));
  // Slot k of warp w: 8 bytes at (w * kMaxLaneStateValues + k) * 8.
  auto slot = [&](llvm::Value *w, size_t k) {
    return b.CreateInBoundsGEP(
        b.getInt64Ty(), slots,
        b.CreateAdd(b.CreateMul(w, b.getInt64(kMaxLaneStateValues)), b.getInt64(k)));
  };
  auto load = [&](llvm::Value *w) {
    std::vector<llvm::Value *> values;
    for (size_t k = 0; k < warpState.size(); ++k)
      values.push_back(b.CreateLoad(warpState[k]->getType(), slot(w, k)));
    return values;
  };
  llvm::BasicBlock *leader = llvm::BasicBlock::Create(b.getContext(), "warp.leader", kernel_);
  llvm::BasicBlock *joined = llvm::BasicBlock::Create(b.getContext(), "warp.joined", kernel_);
  b.CreateCondBr(b.CreateICmpEQ(b.CreateAnd(lane, b.getInt64(warp - 1)), b.getInt64(0)), leader,
                 joined);
  b.SetInsertPoint(leader);
  for (size_t k = 0; k < warpState.size(); ++k)
    b.CreateStore(warpState[k], slot(warpId, k));
  b.CreateBr(joined);
  b.SetInsertPoint(joined);
  emitBlockBarrier(b);
  llvm::Value *warps = b.CreateLShr(b.CreateAdd(laneCount(b), b.getInt64(warp - 1)), log2Of(warp));
  LoopResult total = emitLoop(
      b, b.getInt64(1), warps, load(b.getInt64(0)),
      [&](llvm::Value *w, llvm::ArrayRef<llvm::Value *> carried) {
        return combine(b, carried, load(w));
      },
      "warps");
  // The slots are read by every lane before the next reduction writes them.
  emitBlockBarrier(b);
  return total.carried;
}

std::vector<llvm::Value *> SimtTarget::emitWarpReduce(llvm::IRBuilder<> &b,
                                                      llvm::ArrayRef<llvm::Value *> state,
                                                      const LaneCombine &combine) {
  assert(!state.empty() && state.size() <= kMaxLaneStateValues);
  return warpReduce(b, state.vec(), combine);
}

WarpScan SimtTarget::emitWarpScan(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *zero,
                                  bool exclusive, const LaneAdd &add) {
  // Butterflies from lane distance 1 up, each lane holding its prefix and
  // its group's total: at distance d the lanes of the upper group of each
  // aligned 2d add the lower group's total to their prefix, and both groups
  // add the two totals (the same value in each: addition commutes). Only
  // totals cross lanes, and before each step a group's lanes agree on
  // theirs, so targets whose exchanges reach a mirrored lane of the partner
  // group (butterfliesAscend) serve as well as exact xor partners.
  const int warp = static_cast<int>(description_.warpWidth);
  llvm::Value *lane = b.CreateAnd(laneId(b), b.getInt64(warp - 1), "warp.lane");
  WarpScan scan{exclusive ? zero : value, value};
  for (int distance = 1; distance < warp; distance *= 2) {
    llvm::Value *partner = shuffleXor(b, scan.total, distance);
    llvm::Value *upper = b.CreateICmpNE(b.CreateAnd(lane, b.getInt64(distance)), b.getInt64(0));
    scan.prefix = b.CreateSelect(upper, add(b, partner, scan.prefix), scan.prefix);
    scan.total = add(b, scan.total, partner);
  }
  return scan;
}

void SimtTarget::annotateInnerLoop(llvm::BranchInst *, int64_t, int64_t) {
  // Lanes are threads; LLVM's defaults unroll GPU loops well.
}

void SimtTarget::annotateRowLoop(llvm::BranchInst *) {}

} // namespace xs
