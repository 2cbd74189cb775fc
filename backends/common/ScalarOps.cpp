#include "backends/common/ScalarOps.h"

#include <cassert>
#include <limits>

#include "backends/common/MathFunctions.h"
#include "backends/common/TypeLowering.h"
#include "ir/ScalarConversions.h"

namespace xs {
namespace {

llvm::Constant *sameTypeConstant(llvm::Value *like, double value) {
  return llvm::ConstantFP::get(like->getType(), value);
}

llvm::Value *isNan(llvm::IRBuilder<> &b, llvm::Value *x) { return b.CreateFCmpUNO(x, x); }

llvm::Value *floatUnary(llvm::IRBuilder<> &b, OpKind kind, llvm::Value *x) {
  switch (kind) {
  case OpKind::Neg:
    return b.CreateFNeg(x);
  case OpKind::Abs:
    return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  case OpKind::Sign: {
    llvm::Value *sign =
        b.CreateSelect(b.CreateFCmpOGT(x, sameTypeConstant(x, 0.0)), sameTypeConstant(x, 1.0),
                       b.CreateSelect(b.CreateFCmpOLT(x, sameTypeConstant(x, 0.0)),
                                      sameTypeConstant(x, -1.0), sameTypeConstant(x, 0.0)));
    return b.CreateSelect(isNan(b, x), x, sign);
  }
  case OpKind::Exp:
    return math::emitExp(b, x);
  case OpKind::Log:
    return math::emitLog(b, x);
  case OpKind::Log1p:
    return math::emitLog1p(b, x);
  case OpKind::Sqrt:
    return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  case OpKind::Rsqrt:
    return math::emitRsqrt(b, x);
  case OpKind::Tanh:
    return math::emitTanh(b, x);
  case OpKind::Sigmoid:
    return math::emitSigmoid(b, x);
  case OpKind::Erf:
    return math::emitErf(b, x);
  case OpKind::Sin:
    return math::emitSin(b, x);
  case OpKind::Cos:
    return math::emitCos(b, x);
  case OpKind::Reciprocal:
    return b.CreateFDiv(sameTypeConstant(x, 1.0), x);
  case OpKind::Floor:
    return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x);
  case OpKind::Ceil:
    return b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, x);
  case OpKind::Round:
    return b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x);
  case OpKind::IsNan:
    return isNan(b, x);
  case OpKind::IsInf:
    return b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
                           sameTypeConstant(x, std::numeric_limits<double>::infinity()));
  default:
    return nullptr;
  }
}

llvm::Value *integerUnary(llvm::IRBuilder<> &b, OpKind kind, ElementType type, llvm::Value *x) {
  llvm::Type *t = x->getType();
  llvm::Value *zero = llvm::ConstantInt::get(t, 0);
  bool isUnsigned = !isSignedInteger(type);
  switch (kind) {
  case OpKind::Neg:
    return b.CreateSub(zero, x);
  case OpKind::Abs:
    if (isUnsigned)
      return x;
    return b.CreateSelect(b.CreateICmpSLT(x, zero), b.CreateSub(zero, x), x);
  case OpKind::Sign:
    if (isUnsigned)
      return b.CreateZExt(b.CreateICmpNE(x, zero), t);
    return b.CreateSelect(
        b.CreateICmpSGT(x, zero), llvm::ConstantInt::get(t, 1),
        b.CreateSelect(b.CreateICmpSLT(x, zero), llvm::ConstantInt::getSigned(t, -1), zero));
  case OpKind::Not:
    return b.CreateNot(x); // i1: logical not; integers: bitwise not
  default:
    return nullptr;
  }
}

/// Integer x^y as the interpreter computes it: repeated squaring modulo
/// 2^width for y >= 0; for y < 0, 1 / x^-y truncated (1, +-1 or 0; 0^-n,
/// an error in the interpreter, gives 0). Unrolled over the exponent's bits,
/// straight-line.
llvm::Value *integerPow(llvm::IRBuilder<> &b, ElementType type, llvm::Value *x, llvm::Value *y) {
  llvm::Type *t = x->getType();
  unsigned width = t->getIntegerBitWidth();
  llvm::Value *one = llvm::ConstantInt::get(t, 1);
  llvm::Value *result = one;
  llvm::Value *base = x;
  for (unsigned bit = 0; bit < width; ++bit) {
    llvm::Value *set = b.CreateICmpNE(
        b.CreateAnd(b.CreateLShr(y, llvm::ConstantInt::get(t, bit)), one), b.getIntN(width, 0));
    result = b.CreateSelect(set, b.CreateMul(result, base), result);
    if (bit + 1 < width)
      base = b.CreateMul(base, base);
  }
  if (!isSignedInteger(type))
    return result;
  llvm::Value *minusOne = llvm::ConstantInt::getSigned(t, -1);
  llvm::Value *odd = b.CreateICmpNE(b.CreateAnd(y, one), llvm::ConstantInt::get(t, 0));
  llvm::Value *negativePower =
      b.CreateSelect(b.CreateICmpEQ(x, one), one,
                     b.CreateSelect(b.CreateICmpEQ(x, minusOne), b.CreateSelect(odd, minusOne, one),
                                    llvm::ConstantInt::get(t, 0)));
  return b.CreateSelect(b.CreateICmpSLT(y, llvm::ConstantInt::get(t, 0)), negativePower, result);
}

/// Truncating division and remainder without undefined behaviour: a zero
/// divisor (an error in the interpreter) gives 0; INT_MIN / -1 wraps.
llvm::Value *integerDivRem(llvm::IRBuilder<> &b, bool isDiv, ElementType type, llvm::Value *x,
                           llvm::Value *y) {
  llvm::Type *t = x->getType();
  llvm::Value *zero = llvm::ConstantInt::get(t, 0);
  llvm::Value *one = llvm::ConstantInt::get(t, 1);
  llvm::Value *isZero = b.CreateICmpEQ(y, zero);
  if (!isSignedInteger(type)) {
    llvm::Value *safe = b.CreateSelect(isZero, one, y);
    llvm::Value *r = isDiv ? b.CreateUDiv(x, safe) : b.CreateURem(x, safe);
    return b.CreateSelect(isZero, zero, r);
  }
  llvm::Value *isMinusOne = b.CreateICmpEQ(y, llvm::ConstantInt::getSigned(t, -1));
  llvm::Value *safe = b.CreateSelect(b.CreateOr(isZero, isMinusOne), one, y);
  llvm::Value *r = isDiv ? b.CreateSDiv(x, safe) : b.CreateSRem(x, safe);
  llvm::Value *byMinusOne = isDiv ? b.CreateSub(zero, x) : zero;
  return b.CreateSelect(isZero, zero, b.CreateSelect(isMinusOne, byMinusOne, r));
}

/// A float compute value rounded to float type `to`, in `to`'s compute type.
/// f64 to f32 rounded to odd: truncated toward zero, its last bit set when
/// inexact. Rounding that to bf16 (nearest, ties to even) rounds the f64
/// once, as the interpreter does: f32 keeps 16 more bits than bf16, and an
/// odd last bit keeps an inexact value off the ties.
llvm::Value *roundToOddFloat(llvm::IRBuilder<> &b, llvm::Value *x) {
  llvm::Value *nearest = b.CreateFPTrunc(x, b.getFloatTy());
  llvm::Value *back = b.CreateFPExt(nearest, b.getDoubleTy());
  llvm::Value *bits = b.CreateBitCast(nearest, b.getInt32Ty());
  llvm::Value *away = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x));
  // One step toward zero in magnitude (the encoding is sign and magnitude).
  bits = b.CreateSelect(away, b.CreateSub(bits, b.getInt32(1)), bits);
  llvm::Value *inexact = b.CreateFCmpONE(back, x);
  bits = b.CreateSelect(inexact, b.CreateOr(bits, b.getInt32(1)), bits);
  return b.CreateBitCast(bits, b.getFloatTy());
}

/// i64 to f32 rounded to odd, for a single rounding on to bf16 (see
/// roundToOddFloat): the magnitude's top 24 bits, the last one set when any
/// bit below them is, scaled back by a power of two (all exact).
llvm::Value *roundToOddFloatFromI64(llvm::IRBuilder<> &b, llvm::Value *x) {
  llvm::Type *i64 = b.getInt64Ty();
  llvm::Value *negative = b.CreateICmpSLT(x, b.getInt64(0));
  llvm::Value *magnitude = b.CreateSelect(negative, b.CreateSub(b.getInt64(0), x), x);
  llvm::Value *leading = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, magnitude, b.getTrue());
  // Bits below the top 24: 64 - leading - 24, at least 0 (0 also for x = 0,
  // whose ctlz is poison and is not selected).
  llvm::Value *excess = b.CreateSub(b.getInt64(40), leading);
  llvm::Value *shift = b.CreateSelect(
      b.CreateOr(b.CreateICmpEQ(magnitude, b.getInt64(0)), b.CreateICmpSLT(excess, b.getInt64(0))),
      b.getInt64(0), excess);
  llvm::Value *top = b.CreateLShr(magnitude, shift);
  llvm::Value *below =
      b.CreateAnd(magnitude, b.CreateSub(b.CreateShl(b.getInt64(1), shift), b.getInt64(1)));
  top = b.CreateOr(top, b.CreateZExt(b.CreateICmpNE(below, b.getInt64(0)), i64));
  llvm::Value *value = b.CreateUIToFP(top, b.getFloatTy()); // exact: at most 24 bits
  llvm::Value *scale = b.CreateBitCast(
      b.CreateTrunc(b.CreateShl(b.CreateAdd(shift, b.getInt64(127)), 23), b.getInt32Ty()),
      b.getFloatTy());
  value = b.CreateFMul(value, scale);
  return b.CreateSelect(negative, b.CreateFNeg(value), value);
}

llvm::Value *roundToFloat(llvm::IRBuilder<> &b, ElementType to, llvm::Value *x,
                          BFloatRounding rounding) {
  switch (to) {
  case ElementType::F64:
    return b.CreateFPExt(x, b.getDoubleTy());
  case ElementType::F32:
    return b.CreateFPTrunc(x, b.getFloatTy());
  case ElementType::F16:
    return b.CreateFPExt(b.CreateFPTrunc(x, b.getHalfTy()), b.getFloatTy());
  default:
    if (x->getType()->isDoubleTy())
      return roundFloatToBFloat(b, roundToOddFloat(b, x), rounding);
    return roundFloatToBFloat(b, b.CreateFPTrunc(x, b.getFloatTy()), rounding);
  }
}

} // namespace

llvm::Value *emitUnaryOp(llvm::IRBuilder<> &b, OpKind kind, ElementType type, llvm::Value *x) {
  if (isFloat(type))
    return floatUnary(b, kind, x);
  return integerUnary(b, kind, type, x);
}

llvm::Value *emitBinaryOp(llvm::IRBuilder<> &b, OpKind kind, ElementType type, llvm::Value *x,
                          llvm::Value *y) {
  if (isFloat(type)) {
    switch (kind) {
    case OpKind::Add:
      return b.CreateFAdd(x, y);
    case OpKind::Sub:
      return b.CreateFSub(x, y);
    case OpKind::Mul:
      return b.CreateFMul(x, y);
    case OpKind::Div:
      return b.CreateFDiv(x, y);
    case OpKind::Rem:
      return b.CreateFRem(x, y); // fmod semantics, like the interpreter
    case OpKind::Pow:
      return math::emitPow(b, x, y);
    case OpKind::Max:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, x, y);
    case OpKind::Min:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, x, y);
    default:
      return nullptr;
    }
  }
  bool isUnsigned = !isSignedInteger(type);
  switch (kind) {
  case OpKind::Add:
    return b.CreateAdd(x, y);
  case OpKind::Sub:
    return b.CreateSub(x, y);
  case OpKind::Mul:
    return b.CreateMul(x, y);
  case OpKind::Div:
  case OpKind::Rem:
    return integerDivRem(b, kind == OpKind::Div, type, x, y);
  case OpKind::Pow:
    return integerPow(b, type, x, y);
  case OpKind::Max:
    return b.CreateBinaryIntrinsic(isUnsigned ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, x,
                                   y);
  case OpKind::Min:
    return b.CreateBinaryIntrinsic(isUnsigned ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, x,
                                   y);
  case OpKind::And:
    return b.CreateAnd(x, y);
  case OpKind::Or:
    return b.CreateOr(x, y);
  case OpKind::Xor:
    return b.CreateXor(x, y);
  default:
    return nullptr;
  }
}

llvm::Value *emitCompareOp(llvm::IRBuilder<> &b, std::string_view dir, ElementType type,
                           llvm::Value *x, llvm::Value *y) {
  using P = llvm::CmpInst::Predicate;
  if (isFloat(type)) {
    // Ordered comparisons are false with a NaN; `ne` is unordered (true).
    P p = dir == "eq"   ? P::FCMP_OEQ
          : dir == "ne" ? P::FCMP_UNE
          : dir == "lt" ? P::FCMP_OLT
          : dir == "le" ? P::FCMP_OLE
          : dir == "gt" ? P::FCMP_OGT
          : dir == "ge" ? P::FCMP_OGE
                        : P::BAD_FCMP_PREDICATE;
    if (p == P::BAD_FCMP_PREDICATE)
      return nullptr;
    return b.CreateFCmp(p, x, y);
  }
  bool isUnsigned = !isSignedInteger(type);
  P p = dir == "eq"   ? P::ICMP_EQ
        : dir == "ne" ? P::ICMP_NE
        : dir == "lt" ? (isUnsigned ? P::ICMP_ULT : P::ICMP_SLT)
        : dir == "le" ? (isUnsigned ? P::ICMP_ULE : P::ICMP_SLE)
        : dir == "gt" ? (isUnsigned ? P::ICMP_UGT : P::ICMP_SGT)
        : dir == "ge" ? (isUnsigned ? P::ICMP_UGE : P::ICMP_SGE)
                      : P::BAD_ICMP_PREDICATE;
  if (p == P::BAD_ICMP_PREDICATE)
    return nullptr;
  return b.CreateICmp(p, x, y);
}

llvm::Value *emitCastOp(llvm::IRBuilder<> &b, ElementType from, ElementType to, llvm::Value *x,
                        BFloatRounding rounding) {
  llvm::LLVMContext &context = b.getContext();
  llvm::Type *target = computeType(context, to);
  if (from == to)
    return x;
  if (isFloat(from)) {
    if (isFloat(to))
      return roundToFloat(b, to, x, rounding);
    if (isBool(to))
      return b.CreateFCmpUNE(x, sameTypeConstant(x, 0.0)); // NaN gives 1
    // NaN and infinities give 0, finite values truncate toward zero and
    // wrap modulo 2^width, as the interpreter does
    // (ir/ScalarConversions.h), also beyond 2^63: such a float is its
    // mantissa shifted left by at least 11, and the shift's low 64 bits are
    // the value modulo 2^64 (exact integer arithmetic, no libm call).
    llvm::Value *inRange =
        b.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {b.getInt64Ty(), x->getType()}, {x});
    llvm::Value *wide = x->getType()->isDoubleTy() ? x : b.CreateFPExt(x, b.getDoubleTy());
    llvm::Value *bits = b.CreateBitCast(wide, b.getInt64Ty());
    llvm::Value *exponent = b.CreateAnd(b.CreateLShr(bits, 52), b.getInt64(0x7ff));
    llvm::Value *mantissa = b.CreateOr(b.CreateAnd(bits, b.getInt64((int64_t{1} << 52) - 1)),
                                       b.getInt64(int64_t{1} << 52));
    // value = mantissa * 2^(exponent - 1075); |value| >= 2^63 from exponent 1086.
    llvm::Value *shift = b.CreateSub(exponent, b.getInt64(1075));
    llvm::Value *shiftable = b.CreateICmpULT(shift, b.getInt64(64));
    llvm::Value *magnitude = b.CreateSelect(
        shiftable, b.CreateShl(mantissa, b.CreateSelect(shiftable, shift, b.getInt64(0))),
        b.getInt64(0)); // NaN and infinities (exponent 0x7ff) give 0 here
    llvm::Value *negative = b.CreateICmpSLT(bits, b.getInt64(0));
    llvm::Value *beyond =
        b.CreateSelect(negative, b.CreateSub(b.getInt64(0), magnitude), magnitude);
    llvm::Value *isBeyond = b.CreateICmpUGE(exponent, b.getInt64(1086));
    return b.CreateTrunc(b.CreateSelect(isBeyond, beyond, inRange), target);
  }
  bool sourceUnsigned = !isSignedInteger(from); // u8 and i1
  if (isFloat(to)) {
    // Integer to float rounds once, directly to the target type.
    llvm::Type *direct = storageType(context, to);
    if (to == ElementType::BF16) {
      if (from == ElementType::I64)
        return roundFloatToBFloat(b, roundToOddFloatFromI64(b, x), rounding);
      // Exact in f64, then rounded once (through f32 rounded to odd).
      llvm::Value *wide =
          sourceUnsigned ? b.CreateUIToFP(x, b.getDoubleTy()) : b.CreateSIToFP(x, b.getDoubleTy());
      return roundToFloat(b, to, wide, rounding);
    }
    llvm::Value *converted = sourceUnsigned ? b.CreateUIToFP(x, direct) : b.CreateSIToFP(x, direct);
    return converted->getType() == target ? converted : b.CreateFPExt(converted, target);
  }
  if (isBool(to))
    return b.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
  return sourceUnsigned ? b.CreateZExtOrTrunc(x, target) : b.CreateSExtOrTrunc(x, target);
}

llvm::Constant *reduceIdentity(llvm::LLVMContext &context, OpKind kind, ElementType type) {
  bool isF = isFloat(type);
  switch (kind) {
  case OpKind::ReduceSum:
    return integerConstant(context, type, 0);
  case OpKind::ReduceProd:
    return integerConstant(context, type, 1);
  case OpKind::ReduceMax:
    return isF ? floatConstant(context, type, -std::numeric_limits<double>::infinity())
               : integerConstant(context, type, integerTypeMin(type));
  default:
    return isF ? floatConstant(context, type, std::numeric_limits<double>::infinity())
               : integerConstant(context, type, integerTypeMax(type));
  }
}

llvm::Value *emitReduceStep(llvm::IRBuilder<> &b, OpKind kind, ElementType type,
                            llvm::Value *accumulator, llvm::Value *x) {
  if (isFloat(type)) {
    llvm::Value *r = nullptr;
    switch (kind) {
    case OpKind::ReduceSum:
      r = b.CreateFAdd(accumulator, x);
      break;
    case OpKind::ReduceProd:
      r = b.CreateFMul(accumulator, x);
      break;
    case OpKind::ReduceMax:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, accumulator, x);
    default:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, accumulator, x);
    }
    if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(r))
      instruction->setHasAllowReassoc(true);
    return r;
  }
  switch (kind) {
  case OpKind::ReduceSum:
    return emitBinaryOp(b, OpKind::Add, type, accumulator, x);
  case OpKind::ReduceProd:
    return emitBinaryOp(b, OpKind::Mul, type, accumulator, x);
  case OpKind::ReduceMax:
    return emitBinaryOp(b, OpKind::Max, type, accumulator, x);
  default:
    return emitBinaryOp(b, OpKind::Min, type, accumulator, x);
  }
}

bool isFlaggedExtremum(OpKind kind, ElementType type) {
  return isFloat(type) && (kind == OpKind::ReduceMax || kind == OpKind::ReduceMin);
}

namespace {

/// The flags are integers as wide as the values, set when their sign bit
/// is, and ORed with integer arithmetic on the value's bits rather than
/// with compares: vectorized, they stay in the lanes of the values (i1
/// flags were packed to narrower vectors at every step, and a compare ORed
/// in became a select the vectorizer leaves scalar).
llvm::Type *flagType(llvm::Type *compute) {
  return llvm::IntegerType::get(compute->getContext(), compute->getScalarSizeInBits());
}

/// Bits of `x` whose sign bit is set exactly when x is a NaN: the magnitude
/// plus (2^(bits-1) - 1 - infinity's magnitude) carries into the sign bit
/// only past infinity.
llvm::Value *nanSignBit(llvm::IRBuilder<> &b, llvm::Value *bits) {
  unsigned width = bits->getType()->getIntegerBitWidth();
  llvm::APInt magnitudeMask = llvm::APInt::getSignedMaxValue(width);
  llvm::APInt infinity =
      width == 64 ? llvm::APInt(64, 0x7ff0000000000000ULL) : llvm::APInt(32, 0x7f800000U);
  llvm::Value *magnitude =
      b.CreateAnd(bits, llvm::ConstantInt::get(bits->getType(), magnitudeMask));
  return b.CreateAdd(magnitude, llvm::ConstantInt::get(bits->getType(), magnitudeMask - infinity));
}

/// Bits whose sign bit is set exactly when `bits` equals `pattern`: with
/// d = bits ^ pattern, ~d & (d - 1) has its sign bit set only for d = 0.
llvm::Value *equalSignBit(llvm::IRBuilder<> &b, llvm::Value *bits, llvm::Value *pattern) {
  llvm::Value *d = b.CreateXor(bits, pattern);
  return b.CreateAnd(b.CreateNot(d), b.CreateSub(d, llvm::ConstantInt::get(d->getType(), 1)));
}

} // namespace

std::vector<llvm::Value *> flaggedExtremumInitial(llvm::IRBuilder<> &b, OpKind kind,
                                                  ElementType type) {
  llvm::Constant *identity = reduceIdentity(b.getContext(), kind, type);
  llvm::Constant *unset = llvm::ConstantInt::get(flagType(identity->getType()), 0);
  return {identity, unset, unset};
}

namespace {

/// The zero reduce_max (+0) or reduce_min (-0) keeps when both signs occur.
llvm::Constant *preferredZero(OpKind kind, llvm::Type *type) {
  return llvm::ConstantFP::getZero(type, /*Negative=*/kind != OpKind::ReduceMax);
}

} // namespace

llvm::Value *emitUnflaggedMaximumStep(llvm::IRBuilder<> &b, llvm::Value *state, llvm::Value *x) {
  llvm::Value *number =
      b.CreateSelect(b.CreateFCmpUNO(x, x), llvm::ConstantFP::getInfinity(x->getType()), x);
  llvm::Value *maximum = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, state, number);
  if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(maximum)) {
    instruction->setHasNoNaNs(true);
    instruction->setHasNoSignedZeros(true);
  }
  return maximum;
}

std::vector<llvm::Value *> emitFlaggedExtremumStep(llvm::IRBuilder<> &b, OpKind kind,
                                                   llvm::ArrayRef<llvm::Value *> state,
                                                   llvm::Value *x) {
  llvm::Value *extremum = b.CreateBinaryIntrinsic(
      kind == OpKind::ReduceMax ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, state[0], x);
  if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(extremum)) {
    instruction->setHasNoNaNs(true);
    instruction->setHasNoSignedZeros(true);
  }
  // Compare bits, not values: only the preferred zero's bit pattern counts.
  llvm::Type *bitsType = flagType(x->getType());
  llvm::Value *bits = b.CreateBitCast(x, bitsType);
  llvm::Value *zeroBits =
      llvm::ConstantExpr::getBitCast(preferredZero(kind, x->getType()), bitsType);
  return {extremum, b.CreateOr(state[1], nanSignBit(b, bits)),
          b.CreateOr(state[2], equalSignBit(b, bits, zeroBits))};
}

llvm::Value *emitFlaggedExtremumResult(llvm::IRBuilder<> &b, OpKind kind,
                                       llvm::ArrayRef<llvm::Value *> state) {
  llvm::Value *extremum = state[0];
  llvm::Type *type = extremum->getType();
  // A zero extremum has an arbitrary sign under nsz: the preferred zero if
  // one occurred, else every zero had the other sign.
  auto isSet = [&](llvm::Value *flag) {
    return b.CreateICmpSLT(flag, llvm::ConstantInt::get(flag->getType(), 0));
  };
  llvm::Value *zero = b.CreateSelect(isSet(state[2]), preferredZero(kind, type),
                                     llvm::ConstantFP::getZero(type, kind == OpKind::ReduceMax));
  llvm::Value *value =
      b.CreateSelect(b.CreateFCmpOEQ(extremum, sameTypeConstant(extremum, 0.0)), zero, extremum);
  // After a NaN the extremum is poison, and this select never picks it.
  return b.CreateSelect(isSet(state[1]), llvm::ConstantFP::getNaN(type), value);
}

llvm::Value *emitArgBeats(llvm::IRBuilder<> &b, ElementType type, bool wantMax, llvm::Value *value,
                          llvm::Value *best) {
  if (isFloat(type)) {
    llvm::Value *beyond = wantMax ? b.CreateFCmpOGT(value, best) : b.CreateFCmpOLT(value, best);
    return b.CreateAnd(b.CreateNot(isNan(b, best)), b.CreateOr(isNan(b, value), beyond));
  }
  return emitCompareOp(b, wantMax ? "gt" : "lt", type, value, best);
}

} // namespace xs
