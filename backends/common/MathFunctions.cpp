//===- MathFunctions.cpp - Straight-line LLVM IR math functions -----------===//
//
// Every function here expands to arithmetic, bitcasts, integer ops, selects
// and the llvm.fma/fabs/floor/rint/sqrt/copysign intrinsics: no calls and no
// branches, so the loop vectorizer widens loops that use them and GPU backends
// lower them as they are. Special inputs (NaN, infinities, signed zeros,
// subnormals) are handled by selects after the main computation; lanes that
// take a special path still compute the main formula on sanitized inputs so
// nothing produces poison.
//
// Polynomials are Chebyshev fits (near-minimax) made offline with mpmath's
// chebyfit at 60 digits; each comment gives the function fitted, the interval
// and the fit's max absolute error. F32 tables are rounded to 10 digits and
// converted to float constants when emitted. Measured errors: docs/math.md.
//
//===----------------------------------------------------------------------===//

#include "backends/common/MathFunctions.h"

#include <cassert>
#include <cstdint>

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"

namespace xs::math {
namespace {

// e^r = 1 + r + r^2 * P(r), r in [-ln2/2, ln2/2].
// log(1+f) = 2s + s * z * P(z), s = f / (2 + f), z = s^2 in [0, (3-2sqrt2)^2]
// (P(z) = (2 atanh(sqrt z) / sqrt z - 2) / z).
// sin(r) = r + r^3 * P(r^2), cos(r) = 1 - r^2/2 + r^4 * P(r^2), |r| <= pi/4.
// erf(x) = x * P(x^2), |x| <= 1.
// tanh(x) = x + x^3 * P(x^2), |x| <= 0.5.
// erfc(x) * exp(x^2) = P(x - center) on each listed interval.
// kLogTailF64: (2 atanh(sqrt z) / sqrt z - 2 - 2z/3) / z^2 for the
// double-double log in pow.
// kExpToF16 and kExpToBF16: e^r = 1 + r + r^2 P(r) on |r| <= ln2/2 for exp
// results only rounded to f16 or bf16 (ExpUse): minimax fits of relative
// error (Lawson's iteration, coefficients rounded to f32), at most 5.3e-06
// (2^-17.5) and 1.23e-04 (2^-13.0); half an ulp is at least 2^-12 for f16
// and 2^-9 for bf16.
constexpr double kExpToF16[] = {0.5000511407852173, 0.16753514111042023, 0.041277747601270676};
constexpr double kExpToBF16[] = {0.503940999507904, 0.16662810742855072};
// kExpF32: Chebyshev fit, max abs error 6.493e-08.
constexpr double kExpF32[] = {5.0e-1, 1.666657703e-1, 4.166655466e-2, 8.363173075e-3,
                              1.392617612e-3};
// kLogTailF32: (2 atanh(sqrt z) / sqrt z - 2 - 2z/3) / z^2 for the
// float-float log in f32 pow: its Taylor series 2/5 + 2/7 z + ..., which on
// z <= (3-2sqrt2)^2 leaves out under 2^-39 of log(1+f).
constexpr double kLogTailF32[] = {2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13};
// kLogF32: Chebyshev fit, max abs error 1.883e-07.
constexpr double kLogF32[] = {6.666668504e-1, 3.998878057e-1, 2.957994939e-1};
// kSinF32: Chebyshev fit, max abs error 2.810e-11.
constexpr double kSinF32[] = {-1.666666666e-1, 8.333331875e-3, -1.984008674e-4, 2.72499258e-6};
// kCosF32: Chebyshev fit, max abs error 2.005e-09.
constexpr double kCosF32[] = {4.166666466e-2, -1.388830304e-3, 2.454794209e-5};
// kErfNumF32 / kErfDenF32: erf(x) ~ x * P(x^2) / Q(x^2) on [0, 3.92], a
// relative-error rational fit (linearized least squares with Lawson
// reweighting, scratch script), max rel error 5.2e-08 before rounding to f32.
constexpr double kErfNumF32[] = {1.128379107e+00, 1.998748332e-01, 5.056664720e-02,
                                 3.699435620e-03, 1.417940221e-04, -1.957555014e-06,
                                 1.992437682e-08};
constexpr double kErfDenF32[] = {1.0, 5.104660988e-01, 1.149777621e-01, 1.434887759e-02,
                                 9.554968565e-04};
// kExpF64: Chebyshev fit, max abs error 1.395e-18.
constexpr double kExpF64[] = {5.0e-1,
                              1.66666666666666709863e-1,
                              4.16666666666666697515e-2,
                              8.33333333332614088398e-3,
                              1.38888888888837524166e-3,
                              1.98412698748004919808e-4,
                              2.4801587325533363819e-5,
                              2.75572554257464342818e-6,
                              2.75572736613486362187e-7,
                              2.5105206373957011116e-8,
                              2.09146793765839350998e-9};
// kLogF64: Chebyshev fit, max abs error 3.101e-16.
constexpr double kLogF64[] = {6.66666666666666968616e-1, 3.99999999998995044898e-1,
                              2.85714286259754849215e-1, 2.22222111347950798551e-1,
                              1.81828891252617220803e-1, 1.53317216005560412686e-1,
                              1.46164496850434058604e-1};
// kSinF64: Chebyshev fit, max abs error 1.159e-20.
constexpr double kSinF64[] = {-1.66666666666666666655e-1, 8.33333333333333149208e-3,
                              -1.98412698412650649465e-4, 2.75573192193391665175e-6,
                              -2.5052106232447577328e-8,  1.60585316189861468364e-10,
                              -7.58669711770691798466e-13};
// kCosF64: Chebyshev fit, max abs error 6.442e-22.
constexpr double kCosF64[] = {4.1666666666666666666e-2,  -1.38888888888888878653e-3,
                              2.48015873015846464282e-5, -2.75573192214028243942e-7,
                              2.08767557910804238071e-9, -1.14704608876099591073e-11,
                              4.74587190204329153657e-14};
// kErfSmallMinusOneF64: Chebyshev fit, max abs error 1.302e-19.
constexpr double kErfSmallMinusOneF64[] = {
    1.2837916709551257377e-1,   -3.76126389031837480557e-1, 1.12837916709548786662e-1,
    -2.68661706450767932482e-2, 5.22397762481801446725e-3,  -8.54832698083378990518e-4,
    1.20553311116427109225e-4,  -1.49255952668311815652e-5, 1.6461000484121368033e-6,
    -1.63503127010546950107e-7, 1.46597752740474358138e-8,  -1.13728488567916736704e-9,
    5.95717614774891140443e-11};
// kTanhSmallF64: Chebyshev fit, max abs error 2.547e-20.
constexpr double kTanhSmallF64[] = {
    -3.33333333333333333308e-1, 1.33333333333333303933e-1,  -5.39682539682483526578e-2,
    2.18694885357345187519e-2,  -8.86323551359309948764e-3, 3.59212766271983836723e-3,
    -1.45582893833516333297e-3, 5.89974938375430552031e-4,  -2.38789305258402223126e-4,
    9.54452450327083866318e-5,  -3.51480943153145298051e-5, 8.85922381601049425199e-6};
// kErfcScaledF64_0 x in [1, 2], t = x - 1.5; Chebyshev fit, max abs error 4.612e-19.
constexpr double kErfcScaledF64_0[] = {
    3.21585416454317502354e-1,  -1.63622917732560053123e-1, 7.61510398554773985916e-2,
    -3.29309052995652739246e-2, 1.33773409530673934841e-2,  -5.14595754783778289757e-3,
    1.88613487699199746702e-3,  -6.61930070108431418084e-4, 2.23309945300441089683e-4,
    -7.2658873015895582399e-5,  2.28642996081277470686e-5,  -6.97536222785843042822e-6,
    2.06706579121566516828e-6,  -5.9449611199176635632e-7,  1.67142929019281259268e-7,
    -4.95458078389016059411e-8, 1.3242541506849585378e-8};
// kErfcScaledF64_1 x in [2, 3], t = x - 2.5; Chebyshev fit, max abs error 6.158e-21.
constexpr double kErfcScaledF64_1[] = {
    2.10806364061143580647e-1,   -7.43473467897946704738e-2, 2.49379970866569039546e-2,
    -8.00156938210164298012e-3,  2.46703681570145096987e-3,  -7.3359093713719246135e-4,
    2.11019824284041064516e-4,   -5.88689647441297462411e-5, 1.59618531486059162273e-5,
    -4.21429529553139286623e-6,  1.08522249701319649725e-6,  -2.7295767244566295104e-7,
    6.7141296756186815962e-8,    -1.61478568739677569898e-8, 3.81185109542302033188e-9,
    -9.32866014067396664527e-10, 2.11688926271443866103e-10};
// kErfcScaledF64_2 x in [3, 4.25], t = x - 3.625; Chebyshev fit, max abs error 4.617e-21.
constexpr double kErfcScaledF64_2[] = {
    1.50289722474269360349e-1,   -3.8778679157059711256e-2,   9.71701052992790662198e-3,
    -2.36967732404738019196e-3,  5.63465115128104035591e-4,   -1.30846512682709950455e-4,
    2.97155022170768327045e-5,   -6.60794776385772314855e-6,  1.4404229018884976438e-6,
    -3.0809209786766311953e-7,   6.47177480900324240984e-8,   -1.33621930025924544953e-8,
    2.71355733140731149666e-9,   -5.41488915041727901961e-10, 1.0660438653876306219e-10,
    -2.19947551957376976549e-11, 4.19991525285369157629e-12};
// kErfcScaledF64_3 x in [4.25, 6], t = x - 5.125; Chebyshev fit, max abs error 1.548e-20.
constexpr double kErfcScaledF64_3[] = {
    1.0809973724654746647e-1,    -2.03568603184010423147e-2,  3.77082811474212322748e-3,
    -6.87577486898456941319e-4,  1.23496747193810208125e-4,   -2.18626630117710259913e-5,
    3.81686641893671138519e-6,   -6.57492178107318368226e-7,  1.11804755063538529131e-7,
    -1.87761688678829499189e-8,  3.11536530104985049403e-9,   -5.10921497935065616427e-10,
    8.28420938973162748422e-11,  -1.32479969377906173472e-11, 2.10220103365638544969e-12,
    -3.57907007369971006606e-13, 5.55494576092122783707e-14};
// kLogTailF64: Chebyshev fit, max abs error 1.877e-18.
constexpr double kLogTailF64[] = {0.399999999999999998173, 0.2857142857142936567,
                                  0.22222222221656231531,  0.181818183353144030776,
                                  0.153845949708954578174, 0.133348042382253445234,
                                  0.11706248540922385336,  0.117230510280977529196};

// Emits the math of one operand type (a float or double scalar or vector).
// Integer views of the operand have the same shape and element width.
class MathEmitter {
public:
  MathEmitter(llvm::IRBuilder<> &b, llvm::Type *type)
      : b(b), type(type), isF32(type->getScalarType()->isFloatTy()),
        intType(type->getWithNewType(b.getIntNTy(type->getScalarSizeInBits()))) {
    assert(type->getScalarType()->isFloatTy() || type->getScalarType()->isDoubleTy());
  }

  llvm::Value *exp(llvm::Value *x);
  llvm::Value *expNonPositiveFlushed(llvm::Value *x, ExpUse use);
  llvm::Value *log(llvm::Value *x);
  llvm::Value *log1p(llvm::Value *x);
  llvm::Value *tanh(llvm::Value *x);
  llvm::Value *sigmoid(llvm::Value *x);
  llvm::Value *erf(llvm::Value *x);
  llvm::Value *sinCos(llvm::Value *x, bool isCos);
  llvm::Value *pow(llvm::Value *x, llvm::Value *y);
  llvm::Value *powSpecialCases(llvm::Value *x, llvm::Value *y, llvm::Value *magnitude);
  llvm::Value *rsqrt(llvm::Value *x);

private:
  // A double-double value hi + lo with |lo| <= ulp(hi) / 2.
  struct DoubleDouble {
    llvm::Value *hi;
    llvm::Value *lo;
  };

  llvm::Value *c(double v) { return llvm::ConstantFP::get(type, v); }
  llvm::Value *ci(int64_t v) {
    return llvm::ConstantInt::get(intType, static_cast<uint64_t>(v), true);
  }
  llvm::Value *pick(double f32, double f64) { return c(isF32 ? f32 : f64); }
  llvm::ArrayRef<double> byType(llvm::ArrayRef<double> f32, llvm::ArrayRef<double> f64) const {
    return isF32 ? f32 : f64;
  }
  llvm::Value *inf() { return llvm::ConstantFP::getInfinity(type); }
  llvm::Value *nan() { return llvm::ConstantFP::getNaN(type); }
  unsigned mantissaBits() const { return isF32 ? 23 : 52; }
  int64_t exponentBias() const { return isF32 ? 127 : 1023; }

  llvm::Value *fma(llvm::Value *a, llvm::Value *m, llvm::Value *add) {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {type}, {a, m, add});
  }
  llvm::Value *unary(llvm::Intrinsic::ID id, llvm::Value *v) {
    return b.CreateUnaryIntrinsic(id, v);
  }
  llvm::Value *fabs(llvm::Value *v) { return unary(llvm::Intrinsic::fabs, v); }
  llvm::Value *floor(llvm::Value *v) { return unary(llvm::Intrinsic::floor, v); }
  llvm::Value *rint(llvm::Value *v) { return unary(llvm::Intrinsic::rint, v); }
  llvm::Value *copysign(llvm::Value *mag, llvm::Value *sign) {
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, mag, sign);
  }
  llvm::Value *isNan(llvm::Value *v) { return b.CreateFCmpUNO(v, v); }
  llvm::Value *select(llvm::Value *cond, llvm::Value *t, llvm::Value *f) {
    return b.CreateSelect(cond, t, f);
  }
  llvm::Value *toBits(llvm::Value *v) { return b.CreateBitCast(v, intType); }
  llvm::Value *fromBits(llvm::Value *v) { return b.CreateBitCast(v, type); }

  // Horner's rule with fma, coefficients lowest degree first.
  llvm::Value *poly(llvm::Value *x, llvm::ArrayRef<double> coefs) {
    llvm::Value *acc = c(coefs.back());
    for (size_t i = coefs.size() - 1; i-- > 0;)
      acc = fma(acc, x, c(coefs[i]));
    return acc;
  }
  // 2^k for an integer k whose 2^k is a normal number.
  llvm::Value *pow2(llvm::Value *k) {
    return fromBits(b.CreateShl(b.CreateAdd(k, ci(exponentBias())), ci(mantissaBits())));
  }
  // x clamped to [lo, hi]; NaN becomes hi (callers select NaN back in).
  llvm::Value *clamp(llvm::Value *x, double lo, double hi) {
    llvm::Value *upper = select(b.CreateFCmpOLT(x, c(hi)), x, c(hi));
    return select(b.CreateFCmpOGT(upper, c(lo)), upper, c(lo));
  }

  // Error-free transforms.
  DoubleDouble twoSum(llvm::Value *a, llvm::Value *s) {
    llvm::Value *hi = b.CreateFAdd(a, s);
    llvm::Value *sPart = b.CreateFSub(hi, a);
    llvm::Value *aPart = b.CreateFSub(hi, sPart);
    llvm::Value *lo = b.CreateFAdd(b.CreateFSub(a, aPart), b.CreateFSub(s, sPart));
    return {hi, lo};
  }
  // Requires |a| >= |s| (or a == 0).
  DoubleDouble fastTwoSum(llvm::Value *a, llvm::Value *s) {
    llvm::Value *hi = b.CreateFAdd(a, s);
    return {hi, b.CreateFSub(s, b.CreateFSub(hi, a))};
  }

  llvm::Value *expWithTail(llvm::Value *x, llvm::Value *tail);
  DoubleDouble logMagnitudeExtended(llvm::Value *ax);
  // Splits a positive finite x (subnormals included) into 2^k * m with m in
  // [sqrt(2)/2, sqrt(2)); returns m - 1 (exact) and k as a float.
  std::pair<llvm::Value *, llvm::Value *> splitMantissa(llvm::Value *x);

  llvm::IRBuilder<> &b;
  llvm::Type *type;
  bool isF32;
  llvm::Type *intType;
};

llvm::Value *MathEmitter::exp(llvm::Value *x) { return expWithTail(x, nullptr); }

// e^(x + tail) with |tail| <= ulp(x) (tail may be null). Cody-Waite reduction
// x = k ln2 + r, e^r by polynomial, then scaling by 2^k in two halves so that
// k near the overflow and subnormal thresholds stays representable and the
// final multiply rounds once (gradual underflow, overflow to inf).
llvm::Value *MathEmitter::expWithTail(llvm::Value *x, llvm::Value *tail) {
  // Beyond these e^x is inf / rounds to 0 in every rounding-to-nearest case.
  llvm::Value *xc = isF32 ? clamp(x, -104.0, 89.0) : clamp(x, -746.0, 710.0);
  llvm::Value *kf = rint(b.CreateFMul(xc, c(1.4426950408889634)));
  llvm::Value *negK = b.CreateFNeg(kf);
  llvm::Value *k = b.CreateFPToSI(kf, intType);
  llvm::Value *kHalf = b.CreateAShr(k, ci(1));
  // 2^k in two factors, so that the last multiply rounds once.
  llvm::Value *firstScale = pow2(kHalf), *secondScale = pow2(b.CreateSub(k, kHalf));
  if (!tail) {
    // ln2 = ln2Hi + ln2Lo; with fma, xc - k*ln2Hi is exact for |k| < 2^11.
    llvm::Value *r = fma(negK, pick(0.693147182, 0.6931471805599453), xc);
    r = fma(negK, pick(-1.90465421e-09, 2.3190468138462996e-17), r);
    llvm::Value *q = fma(b.CreateFMul(r, r), poly(r, byType(kExpF32, kExpF64)), r);
    // (1 + q) * 2^(k/2) in one fma: the same value (2^(k/2) is normal, so
    // scaling commutes with rounding), one instruction fewer.
    llvm::Value *scaled = b.CreateFMul(fma(q, firstScale, firstScale), secondScale);
    return select(isNan(x), x, scaled);
  }
  // Keep r in two parts so the tail's bits survive. f32: xc - k*ln2Hi is
  // exact with a 16-bit ln2Hi (Sterbenz); f64: with fma, as above.
  llvm::Value *r = fma(negK, pick(0.693145751953125, 0.6931471805599453), xc);
  llvm::Value *small = fma(negK, pick(1.4286068203094173e-06, 2.3190468138462996e-17), tail);
  DoubleDouble rr = twoSum(r, small);
  // e^(hi + lo) = 1 + hi + hi^2 P(hi) + lo (1 + hi), to first order in lo.
  llvm::Value *q = fma(b.CreateFMul(rr.hi, rr.hi), poly(rr.hi, byType(kExpF32, kExpF64)),
                       b.CreateFMul(rr.lo, b.CreateFAdd(c(1.0), rr.hi)));
  DoubleDouble sum = fastTwoSum(c(1.0), rr.hi);
  llvm::Value *p = b.CreateFAdd(sum.hi, b.CreateFAdd(sum.lo, q));
  llvm::Value *scaled = b.CreateFMul(b.CreateFMul(p, firstScale), secondScale);
  return select(isNan(x), x, scaled);
}

// e^x for x <= 0 (or NaN) in code that runs with subnormal results flushed
// to zero. From the clamp up, k >= -126 (f32) or -1022 (f64), so 2^k is
// normal and one multiply scales. At the clamp itself (and so for every x
// below it, -inf included) (1 + q) * 2^k is below the smallest normal
// (0.85 * 2^-126, 0.90 * 2^-1022), so the flush makes it 0: no select is
// needed. The integer k comes from adding a magic constant (its low
// mantissa bits are k + bias), which also rounds to nearest; NaN stays NaN
// through the clamp (a select that keeps x unless x < lowest) and the
// polynomial.
llvm::Value *MathEmitter::expNonPositiveFlushed(llvm::Value *x, ExpUse use) {
  double lowest = isF32 ? -87.5 : -708.5;
  llvm::Value *xc = select(b.CreateFCmpOLT(x, c(lowest)), c(lowest), x);
  double magic = isF32 ? 0x1.8p23 + 127 : 0x1.8p52 + 1023;
  llvm::Value *n = fma(xc, c(1.4426950408889634), c(magic));
  llvm::Value *negK = b.CreateFSub(c(magic), n);
  llvm::ArrayRef<double> coefs = byType(kExpF32, kExpF64);
  if (isF32 && use == ExpUse::ToF16)
    coefs = kExpToF16;
  else if (isF32 && use == ExpUse::ToBF16)
    coefs = kExpToBF16;
  llvm::Value *r = fma(negK, pick(0.693147182, 0.6931471805599453), xc);
  // For a 16-bit result one part of ln2 is enough: the f32 constant's error
  // (1.9e-9) times |k| <= 126 moves e^x by under 2^-22, against the
  // polynomial's 2^-17.5.
  if (use == ExpUse::Full || !isF32)
    r = fma(negK, pick(-1.90465421e-09, 2.3190468138462996e-17), r);
  llvm::Value *q = fma(b.CreateFMul(r, r), poly(r, coefs), r);
  llvm::Value *scale = fromBits(b.CreateShl(toBits(n), ci(mantissaBits())));
  // (1 + q) * 2^k as one fma: the same value where it is normal.
  return fma(q, scale, scale);
}

std::pair<llvm::Value *, llvm::Value *> MathEmitter::splitMantissa(llvm::Value *x) {
  // Subnormals are scaled into the normal range first.
  int64_t scaleBits = isF32 ? 25 : 54;
  llvm::Value *isSubnormal = b.CreateFCmpOLT(x, pick(0x1p-126, 0x1p-1022));
  llvm::Value *xs = select(isSubnormal, b.CreateFMul(x, pick(0x1p25, 0x1p54)), x);
  llvm::Value *kAdjust = select(isSubnormal, ci(-scaleBits), ci(0));
  // Adding (1.0 - sqrt(2)/2) in the bit domain moves mantissas >= sqrt(2)/2
  // into the next binade, so the exponent field rounds to the nearest one.
  int64_t oneBits = isF32 ? 0x3f800000 : 0x3ff0000000000000;
  int64_t halfSqrt2Bits = isF32 ? 0x3f3504f3 : 0x3fe6a09e667f3bcd;
  llvm::Value *bits = b.CreateAdd(toBits(xs), ci(oneBits - halfSqrt2Bits));
  llvm::Value *k =
      b.CreateAdd(b.CreateSub(b.CreateAShr(bits, ci(mantissaBits())), ci(exponentBias())), kAdjust);
  int64_t mantissaMask = (int64_t(1) << mantissaBits()) - 1;
  llvm::Value *m = fromBits(b.CreateAdd(b.CreateAnd(bits, ci(mantissaMask)), ci(halfSqrt2Bits)));
  return {b.CreateFSub(m, c(1.0)), b.CreateSIToFP(k, type)};
}

llvm::Value *MathEmitter::log(llvm::Value *x) {
  auto [f, kf] = splitMantissa(x);
  // log(1+f) = f - f^2/2 + s * (f^2/2 + R) with s = f/(2+f), R = s^2 P(s^2):
  // f is exact and the rounded terms are small (fdlibm's formulation).
  llvm::Value *s = b.CreateFDiv(f, b.CreateFAdd(c(2.0), f));
  llvm::Value *z = b.CreateFMul(s, s);
  llvm::Value *r = b.CreateFMul(z, poly(z, byType(kLogF32, kLogF64)));
  llvm::Value *halfF2 = b.CreateFMul(b.CreateFMul(c(0.5), f), f);
  llvm::Value *t = fma(s, b.CreateFAdd(halfF2, r),
                       b.CreateFMul(kf, pick(-1.90465421e-09, 2.3190468138462996e-17)));
  t = b.CreateFAdd(b.CreateFSub(t, halfF2), f);
  llvm::Value *result = fma(kf, pick(0.693147182, 0.6931471805599453), t);
  result = select(b.CreateFCmpOEQ(x, inf()), x, result);
  result = select(b.CreateFCmpOEQ(x, c(0.0)), llvm::ConstantFP::getInfinity(type, true), result);
  result = select(b.CreateFCmpOLT(x, c(0.0)), nan(), result);
  return select(isNan(x), x, result);
}

// log1p(x) = log(u) + (x - (u - 1)) / u with u = 1 + x rounded: the second
// term is the first-order correction for the rounding of u, and for tiny x
// (u == 1) it is x itself.
llvm::Value *MathEmitter::log1p(llvm::Value *x) {
  llvm::Value *u = b.CreateFAdd(c(1.0), x);
  llvm::Value *logU = log(u);
  llvm::Value *correction = b.CreateFDiv(b.CreateFSub(x, b.CreateFSub(u, c(1.0))), u);
  // u = 0 or inf would make the correction NaN; log(u) is already right.
  llvm::Value *uFiniteNonZero =
      b.CreateAnd(b.CreateFCmpOLT(fabs(u), inf()), b.CreateFCmpONE(u, c(0.0)));
  correction = select(uFiniteNonZero, correction, c(0.0));
  llvm::Value *result = b.CreateFAdd(logU, correction);
  // Keeps the sign of -0.
  return select(b.CreateFCmpOEQ(x, c(0.0)), x, result);
}

// f32: tanh|x| = E / (E + 2) with E = e^{2|x|} - 1, one formula for every
// |x| (no per-lane path selection): E keeps its relative accuracy near 0
// because the reduced e^r - 1 = r + r^2 P(r) is evaluated without adding 1,
// and for large |x| the E error is damped by 2 / (E + 2). E = 2^k (e^r - 1) +
// (2^k - 1) with 2^k - 1 exact. 2|x| is clamped at 40 (tanh rounds to 1 from
// 9.01), so 2^k stays normal; k comes from the 1.5 * 2^23 shifter, so a NaN
// never reaches an fptosi (which would be poison) and simply propagates.
// f64: |x| < 0.5: odd polynomial (no cancellation near 0); otherwise
// 1 - 2 / (e^{2|x|} + 1), which saturates to 1 when e^{2|x|} overflows.
llvm::Value *MathEmitter::tanh(llvm::Value *x) {
  if (isF32) {
    llvm::Value *ax = fabs(x);
    llvm::Value *y = b.CreateFAdd(ax, ax);
    // NaN compares false and passes through.
    y = select(b.CreateFCmpOGT(y, c(40.0)), c(40.0), y);
    llvm::Value *shifted = fma(y, c(1.4426950408889634), c(0x1.8p23));
    llvm::Value *kf = b.CreateFSub(shifted, c(0x1.8p23));
    // k <= 58, so ln2's low part would move r by less than 0.03 ulp of E.
    llvm::Value *r = fma(b.CreateFNeg(kf), c(0.693147182), y);
    llvm::Value *expm1R = fma(b.CreateFMul(r, r), poly(r, kExpF32), r);
    // The shifter's low mantissa bits hold k; shifting them into the
    // exponent field drops the shifter's own bits.
    llvm::Value *twoK = fromBits(
        b.CreateAdd(b.CreateShl(toBits(shifted), ci(mantissaBits())), ci(exponentBias() << 23)));
    llvm::Value *e = fma(twoK, expm1R, b.CreateFSub(twoK, c(1.0)));
    return copysign(b.CreateFDiv(e, b.CreateFAdd(e, c(2.0))), x);
  }
  llvm::Value *ax = fabs(x);
  llvm::Value *x2 = b.CreateFMul(x, x);
  llvm::Value *small = fma(b.CreateFMul(ax, x2), poly(x2, kTanhSmallF64), ax);
  llvm::Value *e = exp(b.CreateFMul(c(2.0), ax));
  llvm::Value *large = b.CreateFSub(c(1.0), b.CreateFDiv(c(2.0), b.CreateFAdd(e, c(1.0))));
  // copysign also keeps the sign of -0.
  return copysign(select(b.CreateFCmpOLT(ax, c(0.5)), small, large), x);
}

// 1 / (1 + e^-x) for x >= 0 and e^x / (1 + e^x) for x < 0: e = e^-|x| never
// overflows and tiny results keep their relative accuracy.
llvm::Value *MathEmitter::sigmoid(llvm::Value *x) {
  llvm::Value *e = exp(b.CreateFNeg(fabs(x)));
  llvm::Value *numerator = select(b.CreateFCmpOGE(x, c(0.0)), c(1.0), e);
  return b.CreateFDiv(numerator, b.CreateFAdd(c(1.0), e));
}

// f64: |x| < 1: x * P(x^2). Otherwise erf = 1 - e^{-x^2} * G(|x|) with
// G = erfc * e^{x^2} by a per-interval polynomial (coefficients picked per
// lane with selects); x^2 is split into hi + lo so e^{-x^2} keeps its
// relative accuracy. erf(|x|) rounds to 1 beyond 6.
// f32: one odd rational x * P(x^2) / Q(x^2) on |x| clamped to 3.92 (erfc(3.92)
// is under half an ulp of 1), so no per-lane path selection; |x| >= 3.92 gives
// exactly +-1. The clamp lets NaN through, so it propagates.
llvm::Value *MathEmitter::erf(llvm::Value *x) {
  if (isF32) {
    constexpr double kSaturation = 3.92;
    llvm::Value *xc = select(b.CreateFCmpOGT(x, c(kSaturation)), c(kSaturation), x);
    xc = select(b.CreateFCmpOLT(xc, c(-kSaturation)), c(-kSaturation), xc);
    llvm::Value *z = b.CreateFMul(xc, xc);
    llvm::Value *ratio = b.CreateFDiv(b.CreateFMul(xc, poly(z, kErfNumF32)), poly(z, kErfDenF32));
    return select(b.CreateFCmpOGE(fabs(x), c(kSaturation)), copysign(c(1.0), x), ratio);
  }
  llvm::Value *ax = fabs(x);
  llvm::Value *x2 = b.CreateFMul(x, x);
  // x + x * (P(x^2) - 1): the polynomial's rounding errors shrink by ~8x.
  llvm::Value *small = fma(x, poly(x2, kErfSmallMinusOneF64), x);

  struct Piece {
    double start, center;
    llvm::ArrayRef<double> coefs;
  };
  const Piece pieces[] = {{1.0, 1.5, kErfcScaledF64_0},
                          {2.0, 2.5, kErfcScaledF64_1},
                          {3.0, 3.625, kErfcScaledF64_2},
                          {4.25, 5.125, kErfcScaledF64_3}};
  constexpr double limit = 6.0;
  llvm::Value *axc = clamp(ax, 1.0, limit);
  llvm::SmallVector<llvm::Value *, 4> inPiece;
  for (const Piece &piece : pieces)
    inPiece.push_back(b.CreateFCmpOGE(axc, c(piece.start)));
  auto perPiece = [&](auto valueOf) {
    llvm::Value *v = c(valueOf(pieces[0]));
    for (size_t i = 1; i < std::size(pieces); ++i)
      v = select(inPiece[i], c(valueOf(pieces[i])), v);
    return v;
  };
  llvm::Value *t = b.CreateFSub(axc, perPiece([](const Piece &p) { return p.center; }));
  size_t degree = pieces[0].coefs.size() - 1;
  llvm::Value *g = perPiece([&](const Piece &p) { return p.coefs[degree]; });
  for (size_t i = degree; i-- > 0;)
    g = fma(g, t, perPiece([&](const Piece &p) { return p.coefs[i]; }));
  llvm::Value *sqHi = b.CreateFMul(axc, axc);
  llvm::Value *sqLo = fma(axc, axc, b.CreateFNeg(sqHi));
  llvm::Value *e = exp(b.CreateFNeg(sqHi));
  e = fma(e, b.CreateFNeg(sqLo), e); // e^{-hi-lo} ~ e^{-hi} (1 - lo)
  llvm::Value *large = fma(b.CreateFNeg(e), g, c(1.0));
  llvm::Value *result = select(b.CreateFCmpOLT(ax, c(1.0)), small, copysign(large, x));
  return select(isNan(x), x, result);
}

// Cody-Waite reduction x = q pi/2 + r with pi/2 split in three parts (fma
// keeps each step exact or within an ulp of r), then the sine or cosine
// polynomial chosen by the quadrant q mod 4.
llvm::Value *MathEmitter::sinCos(llvm::Value *x, bool isCos) {
  llvm::Value *finite = b.CreateFCmpOLT(fabs(x), inf());
  llvm::Value *xs = select(finite, x, c(0.0));
  llvm::Value *q = rint(b.CreateFMul(xs, c(0.63661977236758134)));
  llvm::Value *negQ = b.CreateFNeg(q);
  llvm::Value *r = fma(negQ, pick(1.57079637, 1.5707963267948966), xs);
  r = fma(negQ, pick(-4.37113883e-08, 6.123233995736766e-17), r);
  r = fma(negQ, pick(-1.71512451e-15, -1.4973849048591698e-33), r);
  // In range |r| <= pi/4 plus the rounding of x * 2/pi. Far beyond the
  // documented range q*C2 swamps r and r is meaningless; the clamp keeps the
  // polynomials, and so the result, within [-1, 1] there.
  r = clamp(r, -1.0, 1.0);
  llvm::Value *z = b.CreateFMul(r, r);
  llvm::Value *sinR = fma(b.CreateFMul(r, z), poly(z, byType(kSinF32, kSinF64)), r);
  llvm::Value *cosR =
      fma(b.CreateFMul(z, z), poly(z, byType(kCosF32, kCosF64)), fma(z, c(-0.5), c(1.0)));
  // q mod 4 in floating point is exact for any q, so the conversion below
  // never sees an out-of-range value.
  llvm::Value *qMod4 = b.CreateFSub(q, b.CreateFMul(c(4.0), floor(b.CreateFMul(q, c(0.25)))));
  llvm::Value *quadrant = b.CreateFPToSI(qMod4, intType);
  if (isCos)
    quadrant = b.CreateAdd(quadrant, ci(1));
  llvm::Value *useCos = b.CreateICmpNE(b.CreateAnd(quadrant, ci(1)), ci(0));
  llvm::Value *negate = b.CreateICmpNE(b.CreateAnd(quadrant, ci(2)), ci(0));
  llvm::Value *result = select(useCos, cosR, sinR);
  result = select(negate, b.CreateFNeg(result), result);
  if (!isCos) // sin(+-0) = +-0
    result = select(b.CreateFCmpOEQ(x, c(0.0)), x, result);
  result = select(finite, result, nan());
  return select(isNan(x), x, result);
}

// log|x| as a double-double (f64: relative error ~2^-65) or a float-float
// (f32: ~2^-38): enough that e^{y log|x|} stays within an ulp for results
// anywhere in the type's range. s = f/(2+f) and the (2/3)s^3 term are carried
// in two parts, the rest by its own fit (f64) or Taylor series (f32), and
// k ln2 with an ln2Hi whose low bits are zero, so that k * ln2Hi is exact.
MathEmitter::DoubleDouble MathEmitter::logMagnitudeExtended(llvm::Value *ax) {
  auto [f, kf] = splitMantissa(ax);
  // s = f / (2 + f) in two parts.
  DoubleDouble den = fastTwoSum(c(2.0), f);
  llvm::Value *sHi = b.CreateFDiv(f, den.hi);
  llvm::Value *rem = b.CreateFSub(fma(b.CreateFNeg(sHi), den.hi, f), b.CreateFMul(sHi, den.lo));
  llvm::Value *sLo = b.CreateFDiv(rem, den.hi);
  // log(1+f) = 2s + (2/3) s^3 + s^5 P(s^2); the s^3 term in two parts.
  llvm::Value *zHi = b.CreateFMul(sHi, sHi);
  llvm::Value *zLo = fma(sHi, sHi, b.CreateFNeg(zHi));
  zLo = fma(b.CreateFMul(c(2.0), sHi), sLo, zLo);
  llvm::Value *cubeHi = b.CreateFMul(sHi, zHi);
  llvm::Value *cubeLo = fma(sHi, zHi, b.CreateFNeg(cubeHi));
  cubeLo = fma(sHi, zLo, fma(sLo, zHi, cubeLo));
  // 2/3 = twoThirdsHi + twoThirdsLo in the type.
  llvm::Value *twoThirdsHi = pick(0.666666686534881591796875, 0.6666666666666666);
  llvm::Value *termHi = b.CreateFMul(cubeHi, twoThirdsHi);
  llvm::Value *termLo = fma(cubeHi, twoThirdsHi, b.CreateFNeg(termHi));
  termLo = fma(cubeHi, pick(-1.9868214962795654e-08, 3.700743415417188e-17),
               fma(cubeLo, twoThirdsHi, termLo));
  llvm::Value *rest =
      b.CreateFMul(b.CreateFMul(cubeHi, zHi), poly(zHi, byType(kLogTailF32, kLogTailF64)));
  DoubleDouble logM = twoSum(b.CreateFMul(c(2.0), sHi), termHi);
  llvm::Value *lo =
      b.CreateFAdd(logM.lo, b.CreateFAdd(b.CreateFAdd(b.CreateFMul(c(2.0), sLo), termLo), rest));
  // f32: ln2Hi of 16 significant bits (|k| <= 150); f64: its low 21 bits zero.
  DoubleDouble withK =
      twoSum(b.CreateFMul(kf, pick(0.693145751953125, 0.6931471803691238)), logM.hi);
  lo = b.CreateFAdd(withK.lo, b.CreateFAdd(lo, b.CreateFMul(kf, pick(1.4286068203094173e-06,
                                                                     1.9082149292705877e-10))));
  return fastTwoSum(withK.hi, lo);
}

// |x|^y as e^{y log|x|}: log|x| in two parts (logMagnitudeExtended), y * log|x|
// as an exact product split in two (fma), and exp carrying the low part
// through its reduction. f32 in f32 arithmetic alone (docs/math.md gives the
// measured bounds).
llvm::Value *MathEmitter::pow(llvm::Value *x, llvm::Value *y) {
  llvm::Value *ax = fabs(x);
  DoubleDouble l = logMagnitudeExtended(ax);
  // log|x| for 0, inf and NaN, which the mantissa split does not see.
  llvm::Value *logHi =
      select(b.CreateFCmpOEQ(ax, c(0.0)), llvm::ConstantFP::getInfinity(type, true), l.hi);
  logHi = select(b.CreateFCmpOEQ(ax, inf()), inf(), logHi);
  logHi = select(isNan(ax), ax, logHi);
  llvm::Value *hi = b.CreateFMul(y, logHi);
  llvm::Value *lo = fma(y, l.lo, fma(y, logHi, b.CreateFNeg(hi)));
  // Where y*log|x| is infinite or NaN the tail is NaN; drop it.
  lo = select(b.CreateFCmpOLT(fabs(hi), pick(1e30, 1e300)), lo, c(0.0));
  return powSpecialCases(x, y, expWithTail(hi, lo));
}

// Signs and the IEEE 754 / C99 special cases around |x|^y.
llvm::Value *MathEmitter::powSpecialCases(llvm::Value *x, llvm::Value *y, llvm::Value *magnitude) {
  llvm::Value *yIsInteger = b.CreateFCmpOEQ(floor(y), y); // true for +-inf
  llvm::Value *halfY = b.CreateFMul(y, c(0.5));
  llvm::Value *yIsOdd = b.CreateAnd(yIsInteger, b.CreateFCmpONE(floor(halfY), halfY));
  llvm::Value *xSignBit = b.CreateICmpSLT(toBits(x), ci(0));
  llvm::Value *result = select(b.CreateAnd(xSignBit, yIsOdd), b.CreateFNeg(magnitude), magnitude);
  llvm::Value *xNegativeFinite =
      b.CreateAnd(b.CreateFCmpOLT(x, c(0.0)), b.CreateFCmpOGT(x, b.CreateFNeg(inf())));
  result = select(b.CreateAnd(xNegativeFinite, b.CreateNot(yIsInteger)), nan(), result);
  // pow(x, +-0) = 1, pow(1, y) = 1 and pow(-1, +-inf) = 1, even for NaN.
  llvm::Value *one = b.CreateOr(
      b.CreateFCmpOEQ(y, c(0.0)),
      b.CreateOr(b.CreateFCmpOEQ(x, c(1.0)),
                 b.CreateAnd(b.CreateFCmpOEQ(x, c(-1.0)), b.CreateFCmpOEQ(fabs(y), inf()))));
  return select(one, c(1.0), result);
}

// Correctly rounded sqrt, then a correctly rounded division.
llvm::Value *MathEmitter::rsqrt(llvm::Value *x) {
  return b.CreateFDiv(c(1.0), unary(llvm::Intrinsic::sqrt, x));
}

} // namespace

llvm::Value *emitExp(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).exp(x);
}
llvm::Value *emitExpNonPositiveFlushed(llvm::IRBuilder<> &b, llvm::Value *x, ExpUse use) {
  return MathEmitter(b, x->getType()).expNonPositiveFlushed(x, use);
}
llvm::Value *emitLog(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).log(x);
}
llvm::Value *emitLog1p(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).log1p(x);
}
llvm::Value *emitTanh(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).tanh(x);
}
llvm::Value *emitSigmoid(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).sigmoid(x);
}
llvm::Value *emitErf(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).erf(x);
}
llvm::Value *emitSin(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).sinCos(x, /*isCos=*/false);
}
llvm::Value *emitCos(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).sinCos(x, /*isCos=*/true);
}
llvm::Value *emitPow(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  assert(x->getType() == y->getType() && "pow operands differ in type");
  return MathEmitter(b, x->getType()).pow(x, y);
}
llvm::Value *emitRsqrt(llvm::IRBuilder<> &b, llvm::Value *x) {
  return MathEmitter(b, x->getType()).rsqrt(x);
}

} // namespace xs::math
