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
/// exp for arguments known to be <= 0 or NaN (softmax's x - max(x)), in
/// code that runs with subnormal results flushed to zero: the same values
/// as emitExp there, with one scaling instead of two and no overflow path.
llvm::Value *emitExpNonPositiveFlushed(llvm::IRBuilder<> &b, llvm::Value *x);
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
