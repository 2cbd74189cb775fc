#include "backends/x86/SoftmaxMaximum.h"

#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

namespace xs {
namespace {

/// select(fcmp uno ..., +inf, x): x with a NaN counted as +inf; x or null.
llvm::Value *nanAsInfinity(llvm::Value *value) {
  auto *select = llvm::dyn_cast<llvm::SelectInst>(value);
  if (!select)
    return nullptr;
  auto *compare = llvm::dyn_cast<llvm::FCmpInst>(select->getCondition());
  auto *infinity = llvm::dyn_cast<llvm::Constant>(select->getTrueValue());
  const llvm::APFloat *bound = nullptr;
  if (!compare || compare->getPredicate() != llvm::FCmpInst::FCMP_UNO || !infinity)
    return nullptr;
  if (auto *splat = llvm::dyn_cast_or_null<llvm::ConstantFP>(
          infinity->getType()->isVectorTy() ? infinity->getSplatValue() : infinity))
    bound = &splat->getValueAPF();
  return bound && bound->isInfinity() && !bound->isNegative() ? select->getFalseValue() : nullptr;
}

} // namespace

llvm::PreservedAnalyses SoftmaxMaximumPass::run(llvm::Function &function,
                                                llvm::FunctionAnalysisManager &) {
  std::vector<llvm::IntrinsicInst *> steps;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        call && call->getIntrinsicID() == llvm::Intrinsic::maxnum && call->hasNoNaNs() &&
        (nanAsInfinity(call->getArgOperand(0)) || nanAsInfinity(call->getArgOperand(1))))
      steps.push_back(call);
  for (llvm::IntrinsicInst *step : steps) {
    bool first = nanAsInfinity(step->getArgOperand(0)) != nullptr;
    llvm::Value *x = nanAsInfinity(step->getArgOperand(first ? 0 : 1));
    llvm::Value *accumulator = step->getArgOperand(first ? 1 : 0);
    llvm::IRBuilder<> b(step);
    llvm::Value *larger = b.CreateFCmpOGT(x, accumulator);
    llvm::Value *maximum = b.CreateSelect(larger, x, accumulator);
    maximum->takeName(step);
    llvm::Value *select = step->getArgOperand(first ? 0 : 1);
    step->replaceAllUsesWith(maximum);
    step->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(select);
  }
  if (steps.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace xs
