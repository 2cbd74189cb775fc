#include "backends/x86/PromoteHalfVectors.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace xs {
namespace {

/// The types to promote (PromoteHalfVectorsPass::half and ::bfloat).
struct Promoted {
  bool half, bfloat;
  bool operator()(const llvm::Type *type) const {
    if (!type->isVectorTy())
      return false;
    const llvm::Type *element = type->getScalarType();
    return (half && element->isHalfTy()) || (bfloat && element->isBFloatTy());
  }
};

/// Intrinsics over 16-bit float vectors that codegen scalarizes and whose f32
/// form, truncated, is the same value.
bool isPromotable(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::maxnum:
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::maximum:
  case llvm::Intrinsic::minimum:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::roundeven:
    return true;
  default:
    return false;
  }
}

llvm::Type *floatVectorLike(llvm::Type *narrowVector) {
  return llvm::VectorType::get(llvm::Type::getFloatTy(narrowVector->getContext()),
                               llvm::cast<llvm::VectorType>(narrowVector)->getElementCount());
}

/// The instruction's first `count` operands extended to f32.
std::vector<llvm::Value *> extendedOperands(llvm::IRBuilder<> &b, llvm::Instruction &instruction,
                                            unsigned count) {
  std::vector<llvm::Value *> operands;
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *operand = instruction.getOperand(i);
    operands.push_back(b.CreateFPExt(operand, floatVectorLike(operand->getType())));
  }
  return operands;
}

bool promote(llvm::Instruction &instruction, const Promoted &isPromoted) {
  llvm::IRBuilder<> b(&instruction);
  b.setFastMathFlags(instruction.getFastMathFlags());
  if (auto *compare = llvm::dyn_cast<llvm::FCmpInst>(&instruction)) {
    if (!isPromoted(compare->getOperand(0)->getType()))
      return false;
    std::vector<llvm::Value *> operands = extendedOperands(b, instruction, 2);
    llvm::Value *promoted = b.CreateFCmp(compare->getPredicate(), operands[0], operands[1]);
    promoted->takeName(compare);
    compare->replaceAllUsesWith(promoted);
    return true;
  }
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  if (!call || !isPromoted(call->getType()) || !isPromotable(call->getIntrinsicID()))
    return false;
  std::vector<llvm::Value *> operands = extendedOperands(b, instruction, call->arg_size());
  llvm::Value *wide = b.CreateIntrinsic(call->getIntrinsicID(), {operands[0]->getType()}, operands);
  llvm::Value *promoted = b.CreateFPTrunc(wide, call->getType());
  promoted->takeName(call);
  call->replaceAllUsesWith(promoted);
  return true;
}

} // namespace

llvm::PreservedAnalyses PromoteHalfVectorsPass::run(llvm::Function &function,
                                                    llvm::FunctionAnalysisManager &) {
  Promoted isPromoted{half, bfloat};
  std::vector<llvm::Instruction *> promoted;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (promote(instruction, isPromoted))
      promoted.push_back(&instruction);
  for (llvm::Instruction *instruction : promoted)
    instruction->eraseFromParent();
  if (promoted.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace xs
