#include "backends/common/LoopBuilder.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace xs {

LoopResult emitLoop(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                    llvm::ArrayRef<llvm::Value *> initial, const LoopBody &body, const char *name) {
  return emitStridedLoop(b, begin, end, nullptr, initial, body, name);
}

LoopResult emitStridedLoop(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                           llvm::Value *step, llvm::ArrayRef<llvm::Value *> initial,
                           const LoopBody &body, const char *name) {
  llvm::LLVMContext &context = b.getContext();
  llvm::Function *function = b.GetInsertBlock()->getParent();
  std::string prefix(name);
  llvm::BasicBlock *preheader = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(context, prefix + ".body", function);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(context, prefix + ".exit", function);

  b.CreateCondBr(b.CreateICmpSLT(begin, end), header, exit);

  b.SetInsertPoint(header);
  llvm::PHINode *index = b.CreatePHI(b.getInt64Ty(), 2, prefix + ".i");
  index->addIncoming(begin, preheader);
  std::vector<llvm::PHINode *> phis;
  std::vector<llvm::Value *> current;
  for (llvm::Value *init : initial) {
    llvm::PHINode *phi = b.CreatePHI(init->getType(), 2, prefix + ".acc");
    phi->addIncoming(init, preheader);
    phis.push_back(phi);
    current.push_back(phi);
  }
  std::vector<llvm::Value *> next = body(index, current);
  llvm::Value *nextIndex = b.CreateAdd(index, step ? step : b.getInt64(1), prefix + ".next",
                                       /*HasNUW=*/true, /*HasNSW=*/true);
  llvm::BasicBlock *latchBlock = b.GetInsertBlock();
  llvm::BranchInst *latch = b.CreateCondBr(b.CreateICmpSLT(nextIndex, end), header, exit);
  index->addIncoming(nextIndex, latchBlock);
  for (size_t i = 0; i < phis.size(); ++i)
    phis[i]->addIncoming(next[i], latchBlock);

  b.SetInsertPoint(exit);
  LoopResult result;
  result.latch = latch;
  auto *first = llvm::dyn_cast<llvm::ConstantInt>(begin);
  auto *last = llvm::dyn_cast<llvm::ConstantInt>(end);
  if (first && last && !step)
    result.constantTrips = std::max<int64_t>(last->getSExtValue() - first->getSExtValue(), 0);
  for (size_t i = 0; i < phis.size(); ++i) {
    llvm::PHINode *out = b.CreatePHI(initial[i]->getType(), 2, prefix + ".out");
    out->addIncoming(initial[i], preheader);
    out->addIncoming(next[i], latchBlock);
    result.carried.push_back(out);
  }
  return result;
}

LoopResult emitStridedRuns(llvm::IRBuilder<> &b, llvm::Value *begin, llvm::Value *end,
                           llvm::Value *step, int64_t adjacent,
                           llvm::ArrayRef<llvm::Value *> initial, const LoopBody &body,
                           const char *name) {
  if (adjacent <= 1)
    return emitStridedLoop(b, begin, end, step, initial, body, name);
  return emitStridedLoop(
      b, begin, end, step, initial,
      [&](llvm::Value *first, llvm::ArrayRef<llvm::Value *> carried) {
        std::vector<llvm::Value *> state = carried.vec();
        for (int64_t k = 0; k < adjacent; ++k)
          state = body(k == 0 ? first
                              : b.CreateAdd(first, b.getInt64(k), "run.col", /*HasNUW=*/true,
                                            /*HasNSW=*/true),
                       state);
        return state;
      },
      name);
}

void setUnrollCount(llvm::BranchInst *latch, int count) {
  if (latch == nullptr)
    return;
  llvm::LLVMContext &context = latch->getContext();
  llvm::Metadata *option[] = {llvm::MDString::get(context, "llvm.loop.unroll.count"),
                              llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                  llvm::Type::getInt32Ty(context), static_cast<uint64_t>(count)))};
  llvm::Metadata *operands[] = {nullptr, llvm::MDNode::get(context, option)};
  llvm::MDNode *loop = llvm::MDNode::getDistinct(context, operands);
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

llvm::Value *emitIfElse(llvm::IRBuilder<> &b, llvm::Value *cond,
                        const std::function<llvm::Value *()> &thenValue,
                        const std::function<llvm::Value *()> &elseValue) {
  return emitIfElseValues(
             b, cond, [&] { return std::vector<llvm::Value *>{thenValue()}; },
             [&] { return std::vector<llvm::Value *>{elseValue()}; })
      .front();
}

std::vector<llvm::Value *>
emitIfElseValues(llvm::IRBuilder<> &b, llvm::Value *cond,
                 const std::function<std::vector<llvm::Value *>()> &thenValues,
                 const std::function<std::vector<llvm::Value *>()> &elseValues) {
  llvm::LLVMContext &context = b.getContext();
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *thenBlock = llvm::BasicBlock::Create(context, "if.then", function);
  llvm::BasicBlock *elseBlock = llvm::BasicBlock::Create(context, "if.else", function);
  llvm::BasicBlock *join = llvm::BasicBlock::Create(context, "if.join", function);
  b.CreateCondBr(cond, thenBlock, elseBlock);
  b.SetInsertPoint(thenBlock);
  std::vector<llvm::Value *> thenResults = thenValues();
  llvm::BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(elseBlock);
  std::vector<llvm::Value *> elseResults = elseValues();
  llvm::BasicBlock *elseEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  assert(thenResults.size() == elseResults.size() && "both arms give the same values");
  std::vector<llvm::Value *> results;
  for (size_t i = 0; i < thenResults.size(); ++i) {
    llvm::PHINode *phi = b.CreatePHI(thenResults[i]->getType(), 2, "if.value");
    phi->addIncoming(thenResults[i], thenEnd);
    phi->addIncoming(elseResults[i], elseEnd);
    results.push_back(phi);
  }
  return results;
}

llvm::Value *emitMin(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y);
}

llvm::Value *emitMax(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y);
}

std::array<llvm::BranchInst *, 2> emitChunkLoop(llvm::IRBuilder<> &b, llvm::Value *width,
                                                int64_t full,
                                                const std::function<void(llvm::Value *)> &body,
                                                const char *name) {
  std::array<llvm::BranchInst *, 2> latches{};
  auto loop = [&](llvm::Value *end, size_t which) {
    LoopResult r = emitLoop(
        b, b.getInt64(0), end, {},
        [&](llvm::Value *i, llvm::ArrayRef<llvm::Value *>) {
          body(i);
          return std::vector<llvm::Value *>{};
        },
        name);
    latches[which] = r.latch;
  };
  emitIfElseValues(
      b, b.CreateICmpEQ(width, b.getInt64(full)),
      [&] {
        loop(b.getInt64(full), 0);
        return std::vector<llvm::Value *>{};
      },
      [&] {
        loop(width, 1);
        return std::vector<llvm::Value *>{};
      });
  return latches;
}

} // namespace xs
