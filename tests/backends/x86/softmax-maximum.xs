// Softmax's maximum (isSoftmaxMaximum, ir/ValueFacts.h) runs unflagged: a
// NaN counts as +inf (fcmp uno, select) and one maxnum carries the row, with
// no NaN or zero-sign flag lanes. A maximum that is itself a result keeps the
// flagged form, whose flags are integer lanes set from the element's bits.
// RUN: %xstitch-run %s --function=softmax --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=SOFTMAX
// RUN: %xstitch-run %s --function=both --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=FLAGGED
// RUN: %xstitch-run --random-inputs %s --function=both --dim R=9 --check | FileCheck %s --check-prefix=RESULT
// After the vectorizer (SoftmaxMaximumPass), softmax's step skips a NaN
// instead: select(x > acc, x, acc), which is MAXPS, with no NaN test left
// in the loop; the flagged maximum keeps its maxnum.
// RUN: %xstitch-run %s --function=softmax --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=MAXPS
// RUN: %xstitch-run %s --function=both --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=KEPT

func @softmax(%x: f32[R, 300]) -> (y) {
  %y = softmax %x {axis = 1}
  return %y
}
// SOFTMAX-LABEL: define void @k0_mul.v0(
// SOFTMAX: [[NAN:%[0-9]+]] = fcmp uno float [[X:%[0-9]+]], [[X]]
// SOFTMAX-NEXT: [[NUMBER:%[0-9]+]] = select i1 [[NAN]], float 0x7FF0000000000000, float [[X]]
// SOFTMAX-NEXT: call nnan nsz float @llvm.maxnum.f32(float {{%[a-z.0-9]+}}, float [[NUMBER]])
// No flag lanes follow the maxnum.
// SOFTMAX-NEXT: %col.next = add

func @both(%x: f32[R, 300]) -> (y, m) {
  %m = reduce_max %x {dims = [1]}
  %y = softmax %x {axis = 1}
  return %y, %m
}
// FLAGGED-LABEL: define void @k0_mul.v0(
// FLAGGED-NOT: fcmp uno
// FLAGGED: [[MAX:%[0-9]+]] = call nnan nsz float @llvm.maxnum.f32(float {{%[a-z.0-9]+}}, float [[X:%[0-9]+]])
// FLAGGED-NEXT: bitcast float [[X]] to i32

// RESULT-NOT: fail
// RESULT: check y: pass
// MAXPS-LABEL: define void @k0_mul.v0(
// MAXPS: [[GT:%[0-9]+]] = fcmp ogt <8 x float> [[X:%wide.load[0-9]*]], [[ACC:%vec.phi[0-9]*]]
// MAXPS-NEXT: select <8 x i1> [[GT]], <8 x float> [[X]], <8 x float> [[ACC]]
// MAXPS-NOT: fcmp uno
// MAXPS: middle.block
// KEPT-LABEL: define void @k0_mul.v0(
// KEPT: call nnan nsz <8 x float> @llvm.maxnum.v8f32
