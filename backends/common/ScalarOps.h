#ifndef XSTITCH_BACKENDS_COMMON_SCALAROPS_H
#define XSTITCH_BACKENDS_COMMON_SCALAROPS_H

// The element-wise semantics of ir/InterpretElementwise.cpp as LLVM IR on
// compute-type values (TypeLowering.h). Straight-line code only (selects, no
// branches), so loops containing it vectorize. Where the interpreter reports
// a run-time error (integer division by zero, 0 to a negative power) the
// emitted code gives a defined value instead of undefined behaviour.

#include <string_view>
#include <vector>

#include "backends/common/TypeLowering.h"
#include "ir/ElementType.h"
#include "ir/OpInfo.h"
#include "llvm/IR/IRBuilder.h"

namespace xs {

/// neg, abs, sign, exp, ..., is_nan, is_inf, not; `type` is the operand's.
llvm::Value *emitUnaryOp(llvm::IRBuilder<> &b, OpKind kind, ElementType type, llvm::Value *x);
/// add, sub, mul, div, rem, pow, max, min, and, or, xor.
llvm::Value *emitBinaryOp(llvm::IRBuilder<> &b, OpKind kind, ElementType type, llvm::Value *x,
                          llvm::Value *y);
/// compare with `dir` one of eq, ne, lt, le, gt, ge; nullptr for another dir.
llvm::Value *emitCompareOp(llvm::IRBuilder<> &b, std::string_view dir, ElementType type,
                           llvm::Value *x, llvm::Value *y);
llvm::Value *emitCastOp(llvm::IRBuilder<> &b, ElementType from, ElementType to, llvm::Value *x,
                        BFloatRounding rounding);

/// The identity of reduce_sum/max/min/prod for `type` (docs/ir.md).
llvm::Constant *reduceIdentity(llvm::LLVMContext &context, OpKind kind, ElementType type);
/// One accumulation step of reduce_sum/max/min/prod. Float sums and products
/// carry `reassoc` so the vectorizer may reduce in vector lanes; max and min
/// propagate NaN.
llvm::Value *emitReduceStep(llvm::IRBuilder<> &b, OpKind kind, ElementType type,
                            llvm::Value *accumulator, llvm::Value *x);
/// Float reduce_max/min in a form the loop vectorizer reduces in vector
/// lanes when the state is carried in registers (its reduction recognizer
/// takes llvm.maxnum/minnum with nnan and nsz, not llvm.maximum/minimum).
/// The state is {extremum, sawNan, sawPreferredZero}: the maxnum/minnum runs
/// with nnan and nsz, so it is poison after a NaN and its zero may have
/// either sign; two OR-reduced flags (integers as wide as the compute type,
/// set in their sign bit) record any NaN and any zero of the sign
/// max (+0) or min (-0) prefers, and the result restores NaN propagation and
/// the signed-zero order of ir/InterpretReduce.cpp.
bool isFlaggedExtremum(OpKind kind, ElementType type);
std::vector<llvm::Value *> flaggedExtremumInitial(llvm::IRBuilder<> &b, OpKind kind,
                                                  ElementType type);
std::vector<llvm::Value *> emitFlaggedExtremumStep(llvm::IRBuilder<> &b, OpKind kind,
                                                   llvm::ArrayRef<llvm::Value *> state,
                                                   llvm::Value *x);
llvm::Value *emitFlaggedExtremumResult(llvm::IRBuilder<> &b, OpKind kind,
                                       llvm::ArrayRef<llvm::Value *> state);
/// A step of softmax's maximum (isSoftmaxMaximum in ir/ValueFacts.h): a NaN
/// counts as +infinity and zeros as either sign, so one vectorizable maxnum
/// with no-NaN operands carries the state (starting at the identity, -inf).
/// The row's NaN still reaches every output through the sum of exp.
llvm::Value *emitUnflaggedMaximumStep(llvm::IRBuilder<> &b, llvm::Value *state, llvm::Value *x);
/// True when `value` should replace `best` in argmax (`wantMax`) or argmin:
/// strictly beyond it, NaN beyond everything, so the first extreme wins
/// (ir/InterpretReduce.cpp).
llvm::Value *emitArgBeats(llvm::IRBuilder<> &b, ElementType type, bool wantMax, llvm::Value *value,
                          llvm::Value *best);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_SCALAROPS_H
