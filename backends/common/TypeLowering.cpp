#include "backends/common/TypeLowering.h"

#include <cassert>

#include "ir/ScalarConversions.h"

namespace xs {

llvm::Type *storageType(llvm::LLVMContext &context, ElementType type) {
  switch (type) {
  case ElementType::F32:
    return llvm::Type::getFloatTy(context);
  case ElementType::F64:
    return llvm::Type::getDoubleTy(context);
  case ElementType::F16:
    return llvm::Type::getHalfTy(context);
  case ElementType::BF16:
    // Bits, not LLVM's bfloat: optimizations then never create bfloat
    // arithmetic or compares, which targets without bf16 instructions lower
    // to library calls (__truncsfbf2) that a JIT process may not have.
    return llvm::Type::getInt16Ty(context);
  case ElementType::I1:
  case ElementType::I8:
  case ElementType::U8:
    return llvm::Type::getInt8Ty(context);
  case ElementType::I32:
    return llvm::Type::getInt32Ty(context);
  case ElementType::I64:
    return llvm::Type::getInt64Ty(context);
  }
  assert(false && "unknown element type");
  return nullptr;
}

llvm::Type *computeType(llvm::LLVMContext &context, ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return llvm::Type::getFloatTy(context);
  case ElementType::I1:
    return llvm::Type::getInt1Ty(context);
  default:
    return storageType(context, type);
  }
}

llvm::Value *loadElement(llvm::IRBuilder<> &b, ElementType type, llvm::Value *base,
                         llvm::Value *index) {
  llvm::Type *storage = storageType(b.getContext(), type);
  llvm::Value *address = b.CreateInBoundsGEP(storage, base, index);
  llvm::Value *loaded = b.CreateLoad(storage, address);
  switch (type) {
  case ElementType::F16:
    return b.CreateFPExt(loaded, b.getFloatTy());
  case ElementType::BF16:
    return bfloatBitsToFloat(b, loaded);
  case ElementType::I1:
    return b.CreateICmpNE(loaded, b.getInt8(0));
  default:
    return loaded;
  }
}

void emitPrefetch(llvm::IRBuilder<> &b, llvm::Value *address) {
  b.CreateIntrinsic(llvm::Intrinsic::prefetch, {address->getType()},
                    {address, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
}

void storeElement(llvm::IRBuilder<> &b, ElementType type, llvm::Value *value, llvm::Value *base,
                  llvm::Value *index, BFloatRounding rounding) {
  llvm::Type *storage = storageType(b.getContext(), type);
  llvm::Value *address = b.CreateInBoundsGEP(storage, base, index);
  switch (type) {
  case ElementType::F16:
    value = b.CreateFPTrunc(value, storage);
    break;
  case ElementType::BF16:
    value = floatToBFloatBits(b, value, rounding);
    break;
  case ElementType::I1:
    value = b.CreateZExt(value, storage);
    break;
  default:
    break;
  }
  b.CreateStore(value, address);
}

llvm::Constant *floatConstant(llvm::LLVMContext &context, ElementType type, double value) {
  if (!isFloat(type))
    return integerConstant(context, type, convertDoubleToInteger(value, type));
  // Rounded to the element type once (a constant of f16 holds an f16 value),
  // then held exactly in the compute type.
  return llvm::ConstantFP::get(computeType(context, type), roundToFloatType(value, type));
}

llvm::Constant *integerConstant(llvm::LLVMContext &context, ElementType type, int64_t value) {
  if (isFloat(type))
    return llvm::ConstantFP::get(computeType(context, type), convertIntegerToFloat(value, type));
  int64_t wrapped = wrapToIntegerType(value, type);
  llvm::Type *compute = computeType(context, type);
  // Wrapped values are in the type's range: signed for i8/i32/i64, unsigned
  // for u8 and i1.
  if (isSignedInteger(type))
    return llvm::ConstantInt::getSigned(compute, wrapped);
  return llvm::ConstantInt::get(compute, static_cast<uint64_t>(wrapped));
}

llvm::Value *floatToBFloatBits(llvm::IRBuilder<> &b, llvm::Value *x, BFloatRounding rounding) {
  if (rounding == BFloatRounding::Native)
    return b.CreateBitCast(b.CreateFPTrunc(x, b.getBFloatTy()), b.getInt16Ty());
  llvm::Value *bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value *lsb = b.CreateAnd(b.CreateLShr(bits, 16), b.getInt32(1));
  llvm::Value *rounded = b.CreateAdd(bits, b.CreateAdd(b.getInt32(0x7FFF), lsb));
  llvm::Value *quietNan = b.CreateOr(bits, b.getInt32(0x00400000));
  llvm::Value *chosen = b.CreateSelect(b.CreateFCmpUNO(x, x), quietNan, rounded);
  return b.CreateTrunc(b.CreateLShr(chosen, 16), b.getInt16Ty());
}

llvm::Value *roundFloatToBFloat(llvm::IRBuilder<> &b, llvm::Value *x, BFloatRounding rounding) {
  // Natively through LLVM's bfloat, so that a store of the rounded value
  // (fptrunc of its fpext) folds to one conversion.
  if (rounding == BFloatRounding::Native)
    return b.CreateFPExt(b.CreateFPTrunc(x, b.getBFloatTy()), b.getFloatTy());
  return bfloatBitsToFloat(b, floatToBFloatBits(b, x, rounding));
}

llvm::Value *bfloatBitsToFloat(llvm::IRBuilder<> &b, llvm::Value *bits) {
  llvm::Value *wide = b.CreateShl(b.CreateZExt(bits, b.getInt32Ty()), 16);
  return b.CreateBitCast(wide, b.getFloatTy());
}

llvm::Value *indexFromInteger(llvm::IRBuilder<> &b, ElementType type, llvm::Value *value) {
  if (type == ElementType::U8 || type == ElementType::I1)
    return b.CreateZExt(value, b.getInt64Ty());
  return b.CreateSExtOrTrunc(value, b.getInt64Ty());
}

} // namespace xs
