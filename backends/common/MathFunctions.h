#ifndef XSTITCH_BACKENDS_COMMON_MATHFUNCTIONS_H
#define XSTITCH_BACKENDS_COMMON_MATHFUNCTIONS_H

// Math functions as straight-line LLVM IR (polynomials, bit manipulation and
// selects: no calls, no branches), so the loop vectorizer vectorizes them on
// CPUs and GPUs run them without a vendor library. Every function takes and
// returns a float scalar or vector (f32 or f64 elements) and handles NaN,
// infinities, signed zeros and the extremes of its domain. Their measured
// error bounds against f64 are in docs/math.md and checked by
// tests/unit/MathFunctionsTest.cpp.

#include "llvm/IR/IRBuilder.h"

namespace xs::math {

llvm::Value *emitExp(llvm::IRBuilder<> &b, llvm::Value *x);
/// How an exp's result is used: at full precision, or only on the way to a
/// result rounded to f16 or bf16 (ir/ValueFacts.h, roundingOfExp), where a
/// shorter polynomial is exact enough.
enum class ExpUse : uint8_t { Full, ToF16, ToBF16 };
/// exp for arguments known to be <= 0 or NaN (softmax's x - max(x)), in
/// code that runs with subnormal results flushed to zero: the same values
/// as emitExp there (ExpUse::Full), with one scaling instead of two and no
/// overflow path. For f32 and a 16-bit use, within 2^-17 (ToF16) or 2^-12.9
/// (ToBF16) relative error of e^x: two or three fma fewer (docs/math.md).
llvm::Value *emitExpNonPositiveFlushed(llvm::IRBuilder<> &b, llvm::Value *x,
                                       ExpUse use = ExpUse::Full);
llvm::Value *emitLog(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitLog1p(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitTanh(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitSigmoid(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitErf(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitSin(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitCos(llvm::IRBuilder<> &b, llvm::Value *x);
llvm::Value *emitPow(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y);
llvm::Value *emitRsqrt(llvm::IRBuilder<> &b, llvm::Value *x);

} // namespace xs::math

#endif // XSTITCH_BACKENDS_COMMON_MATHFUNCTIONS_H
