#include "backends/x86/X86Target.h"

#include <cassert>

#include "backends/common/KernelABI.h"
#include "backends/common/LoopBuilder.h"
#include "llvm/IR/MDBuilder.h"

namespace xs {

std::string X86Target::triple() const { return kTriple; }

std::string X86Target::dataLayout() const { return dataLayout_; }

llvm::Function *X86Target::createKernel(llvm::Module &module, const std::string &symbol,
                                        int64_t /*blockLanes: one lane*/, llvm::IRBuilder<> &b) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr, i64, i64, i64}, false);
  kernel_ = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, symbol, module);
  kernel_->addFnAttr(llvm::Attribute::NoUnwind);
  if (!cpu_.empty())
    kernel_->addFnAttr("target-cpu", cpu_);
  if (!features_.empty())
    kernel_->addFnAttr("target-features", features_);
  // The vectors the plan is made for (its tiles, runs and vector widths):
  // LLVM's tuning for some AVX-512 CPUs would otherwise vectorize for 256
  // bits, leaving half of each planned vector to a second instruction.
  kernel_->addFnAttr("prefer-vector-width", std::to_string(description_.vectorBytes * 8));
  // Block buffers can be large stack arrays: probe the stack page by page.
  kernel_->addFnAttr("probe-stack", "inline-asm");
  const char *names[kCpuKernelArgs] = {"buffers", "dims", "blockBegin", "blockEnd", "streamMask"};
  for (unsigned i = 0; i < kCpuKernelArgs; ++i)
    kernel_->getArg(i)->setName(names[i]);
  markArgumentArrays(kernel_);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", kernel_));
  return kernel_;
}

void X86Target::emitBlockLoop(llvm::IRBuilder<> &b,
                              const std::function<void(llvm::Value *blockId)> &body) {
  LoopResult blocks = emitLoop(
      b, kernel_->getArg(2), kernel_->getArg(3), {},
      [&](llvm::Value *blockId, llvm::ArrayRef<llvm::Value *>) {
        body(blockId);
        return std::vector<llvm::Value *>{};
      },
      "block");
  annotateRowLoop(blocks.latch);
}

llvm::Value *X86Target::bufferArg(llvm::IRBuilder<> &b, int index) {
  return loadBufferPointer(b, kernel_->getArg(0), index);
}

llvm::Value *X86Target::dimArg(llvm::IRBuilder<> &b, int index) {
  return loadDim(b, kernel_->getArg(1), index);
}

llvm::Value *X86Target::dimSlot(llvm::IRBuilder<> &b, int index) {
  return b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), kernel_->getArg(1), index);
}

llvm::Value *X86Target::laneId(llvm::IRBuilder<> &b) { return b.getInt64(0); }

llvm::Value *X86Target::laneCount(llvm::IRBuilder<> &b) { return b.getInt64(1); }

void X86Target::emitBlockBarrier(llvm::IRBuilder<> &) {
  // One lane per block: its own writes are visible to it in program order.
}

void X86Target::emitGridStrideLoop(llvm::IRBuilder<> &, llvm::Value *,
                                   const std::function<void(llvm::Value *)> &) {
  assert(false && "x86 has no cooperative kernels; the emitter never asks for their loop");
}

void X86Target::emitGridBarrier(llvm::IRBuilder<> &, int) {
  assert(false && "x86 splits phases into functions; the emitter never asks for a grid barrier");
}

llvm::Value *X86Target::allocateBlockBuffer(llvm::IRBuilder<> &b, llvm::Type *elementType,
                                            llvm::Value *elements) {
  // One buffer per call, reused by every block the call runs (they run one
  // after another). A constant size is a fixed array in the entry block; a
  // size that depends on dims is allocated where the emitter asks, which is
  // before the block loop. The planner keeps block buffers within
  // blockBufferBytes, so the stack holds them.
  llvm::Align align(std::max<int64_t>(description_.vectorBytes, 16));
  if (auto *count = llvm::dyn_cast<llvm::ConstantInt>(elements)) {
    llvm::BasicBlock &entry = kernel_->getEntryBlock();
    llvm::IRBuilder<> entryBuilder(&entry, entry.getFirstInsertionPt());
    auto *arrayType = llvm::ArrayType::get(elementType, count->getZExtValue());
    llvm::AllocaInst *buffer = entryBuilder.CreateAlloca(arrayType, nullptr, "block.buffer");
    buffer->setAlignment(align);
    return buffer;
  }
  llvm::AllocaInst *buffer = b.CreateAlloca(elementType, elements, "block.buffer");
  buffer->setAlignment(align);
  return buffer;
}

std::vector<llvm::Value *> X86Target::emitCrossLaneReduce(llvm::IRBuilder<> &,
                                                          llvm::ArrayRef<llvm::Value *> state,
                                                          const LaneCombine &) {
  return state; // one lane
}

std::vector<llvm::Value *> X86Target::emitWarpReduce(llvm::IRBuilder<> &,
                                                     llvm::ArrayRef<llvm::Value *> state,
                                                     const LaneCombine &) {
  return state; // one lane
}

WarpScan X86Target::emitWarpScan(llvm::IRBuilder<> &, llvm::Value *value, llvm::Value *zero,
                                 bool exclusive, const LaneAdd &) {
  return WarpScan{exclusive ? zero : value, value}; // one lane
}

namespace {

/// The longest constant trip count kept rolled until vectorization (LLVM's
/// full unroll takes loops up to a few hundred instructions).
constexpr int64_t kRolledTripLimit = 256;

llvm::MDNode *loopOption(llvm::LLVMContext &context, const char *name, llvm::Metadata *value) {
  llvm::Metadata *option[] = {llvm::MDString::get(context, name), value};
  return llvm::MDNode::get(context, value ? option : llvm::ArrayRef(option, 1));
}

void setLoopOptions(llvm::BranchInst *latch, llvm::ArrayRef<llvm::Metadata *> options) {
  std::vector<llvm::Metadata *> operands{nullptr};
  operands.insert(operands.end(), options.begin(), options.end());
  llvm::MDNode *loop = llvm::MDNode::getDistinct(latch->getContext(), operands);
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

} // namespace

// A short constant trip count would be fully unrolled before the vectorizer
// runs, leaving the enclosing row loop to be vectorized with gathers (a
// reduction over rows of 32 floats ran 8x slower that way): such a loop is
// kept rolled until it is vectorized, and the vector loop may then be
// unrolled. Longer or unknown trip counts are left to the vectorizer's
// interleaving (which an unroll hint on the loop itself would turn off), and
// the loops it leaves are not unrolled again: that added nothing to loops
// already interleaved four times (layernorm 1.01 to 1.07 of the time,
// layernorm_bwd 1.00 to 1.03, the others within noise), but each copy
// multiplied the address uses loop strength reduction weighs, which took most
// of code generation (layernorm_bwd compiled in 0.6 to 0.7 of the time,
// bias_grad 0.7, bert_layer 0.85).
void X86Target::annotateInnerLoop(llvm::BranchInst *latch, int64_t constantTrips,
                                  int64_t vectorWidth) {
  llvm::LLVMContext &context = latch->getContext();
  llvm::Metadata *enable = llvm::ConstantAsMetadata::get(llvm::ConstantInt::getTrue(context));
  std::vector<llvm::Metadata *> options{loopOption(context, "llvm.loop.vectorize.enable", enable)};
  if (vectorWidth > 1)
    options.push_back(
        loopOption(context, "llvm.loop.vectorize.width",
                   llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                       llvm::Type::getInt32Ty(context), static_cast<uint64_t>(vectorWidth)))));
  // The loops the vectorizer leaves get these attributes instead of the
  // original ones: the usual mark of a vectorized loop, and for long loops
  // no unrolling.
  llvm::MDNode *vectorized = loopOption(
      context, "llvm.loop.isvectorized",
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1)));
  llvm::MDNode *noUnroll = loopOption(context, "llvm.loop.unroll.disable", nullptr);
  llvm::MDString *followupAll = llvm::MDString::get(context, "llvm.loop.vectorize.followup_all");
  if (constantTrips > 0 && constantTrips <= kRolledTripLimit) {
    options.push_back(noUnroll);
    options.push_back(llvm::MDNode::get(context, {followupAll, vectorized}));
  } else {
    options.push_back(llvm::MDNode::get(context, {followupAll, vectorized, noUnroll}));
  }
  setLoopOptions(latch, options);
}

void X86Target::annotateRowLoop(llvm::BranchInst *latch) {
  llvm::LLVMContext &context = latch->getContext();
  setLoopOptions(latch,
                 {loopOption(context, "llvm.loop.vectorize.enable",
                             llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(context))),
                  loopOption(context, "llvm.loop.unroll.disable", nullptr)});
}

} // namespace xs
