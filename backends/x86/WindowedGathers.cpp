#include "backends/x86/WindowedGathers.h"

#include <optional>
#include <vector>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace xs {
namespace {

/// The permute of `gather`'s lanes (VPERMPS or VPERMD, on 8 or on 16
/// lanes), when it is a gather this pass rewrites: 8 or 16 32-bit elements,
/// every lane enabled, addresses one scalar base in a block buffer (a stack
/// allocation) indexed by a vector of element indices.
std::optional<llvm::Intrinsic::ID> permuteFor(const llvm::IntrinsicInst &gather,
                                              const WindowedGathersPass &cpu) {
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(gather.getType());
  auto *mask = llvm::dyn_cast<llvm::Constant>(gather.getArgOperand(2));
  auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(gather.getArgOperand(0));
  if (!type || !mask || !mask->isAllOnesValue() || !address || address->getNumIndices() != 1 ||
      address->getPointerOperandType()->isVectorTy() ||
      address->getSourceElementType() != type->getElementType() ||
      !address->getOperand(1)->getType()->isVectorTy() ||
      !llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(address->getPointerOperand())))
    return std::nullopt;
  llvm::Type *element = type->getElementType();
  bool isFloat = element->isFloatTy(), isInt = element->isIntegerTy(32);
  if (!isFloat && !isInt)
    return std::nullopt;
  if (type->getNumElements() == 8 && cpu.avx2)
    return isFloat ? llvm::Intrinsic::x86_avx2_permps : llvm::Intrinsic::x86_avx2_permd;
  if (type->getNumElements() == 16 && cpu.avx512)
    return isFloat ? llvm::Intrinsic::x86_avx512_permvar_sf_512
                   : llvm::Intrinsic::x86_avx512_permvar_si_512;
  return std::nullopt;
}

/// Rewrites `gather` as described in WindowedGathers.h.
void rewrite(llvm::IntrinsicInst *gather, llvm::Intrinsic::ID permute) {
  auto *type = llvm::cast<llvm::FixedVectorType>(gather->getType());
  auto *address = llvm::cast<llvm::GetElementPtrInst>(gather->getArgOperand(0));
  const unsigned lanes = type->getNumElements();
  llvm::Value *indices = address->getOperand(1);
  auto *indexType = llvm::cast<llvm::VectorType>(indices->getType());
  llvm::Type *index = indexType->getElementType();

  llvm::IRBuilder<> b(gather);
  llvm::Value *first = b.CreateExtractElement(indices, uint64_t{0});
  llvm::Value *last = b.CreateExtractElement(indices, uint64_t{lanes - 1});
  llvm::Value *span = b.CreateSub(last, first, "window.span");
  llvm::Value *offsets = b.CreateSub(indices, b.CreateVectorSplat(lanes, first), "window.offsets");
  // Unsigned: a lane below the first one is far above the span.
  llvm::Value *within =
      b.CreateAndReduce(b.CreateICmpULE(offsets, b.CreateVectorSplat(lanes, span)));
  llvm::Value *narrow = b.CreateICmpULT(span, llvm::ConstantInt::get(index, lanes));
  llvm::Value *windowed = b.CreateAnd(within, narrow, "windowed");

  llvm::Instruction *thenTerm = nullptr, *elseTerm = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(windowed, gather, &thenTerm, &elseTerm);

  llvm::IRBuilder<> t(thenTerm);
  std::vector<llvm::Constant *> laneNumbers;
  for (unsigned i = 0; i < lanes; ++i)
    laneNumbers.push_back(llvm::ConstantInt::get(index, i));
  // Only the elements from the first lane's to the last lane's are read.
  llvm::Value *needed =
      t.CreateICmpULE(llvm::ConstantVector::get(laneNumbers), t.CreateVectorSplat(lanes, span));
  llvm::Value *start = t.CreateGEP(type->getElementType(), address->getPointerOperand(), first);
  auto align = llvm::cast<llvm::ConstantInt>(gather->getArgOperand(1))->getZExtValue();
  llvm::CallInst *window =
      t.CreateMaskedLoad(type, start, llvm::Align(align), needed, nullptr, "window");
  for (unsigned kind : {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias,
                        llvm::LLVMContext::MD_invariant_load})
    if (llvm::MDNode *node = gather->getMetadata(kind))
      window->setMetadata(kind, node);
  llvm::Value *selectors = t.CreateTrunc(
      offsets, llvm::FixedVectorType::get(llvm::Type::getInt32Ty(t.getContext()), lanes));
  llvm::Function *permuteFunction = llvm::Intrinsic::getDeclaration(gather->getModule(), permute);
  llvm::Value *permuted = t.CreateCall(permuteFunction, {window, selectors}, "windowed.gather");

  llvm::Instruction *fallback = gather->clone();
  fallback->insertBefore(elseTerm);

  llvm::PHINode *result = llvm::PHINode::Create(type, 2, "", gather);
  result->addIncoming(permuted, thenTerm->getParent());
  result->addIncoming(fallback, elseTerm->getParent());
  result->takeName(gather);
  gather->replaceAllUsesWith(result);
  gather->eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses WindowedGathersPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &) {
  std::vector<std::pair<llvm::IntrinsicInst *, llvm::Intrinsic::ID>> gathers;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        call && call->getIntrinsicID() == llvm::Intrinsic::masked_gather)
      if (std::optional<llvm::Intrinsic::ID> permute = permuteFor(*call, *this))
        gathers.emplace_back(call, *permute);
  for (auto [gather, permute] : gathers)
    rewrite(gather, permute);
  return gathers.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace xs
