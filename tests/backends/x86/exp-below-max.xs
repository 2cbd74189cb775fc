// exp(x - max(x)) over the same dims (softmax's exp) is <= 1: kernels that
// flush subnormals (the default) compute it with one scaling
// (emitExpNonPositiveFlushed, recognized by its 1.5 * 2^23 + 127 shifter);
// with --keep-denormals, and for a maximum over other dims, the full exp.
// Against the interpreter with arguments down to -400 (results flushed).
// RUN: %xstitch-run --random-inputs %s --function=below --dim R=37 --dim C=45 --input=x=random:-200:200 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=below --dim R=37 --dim C=45 --input=x=random:-200:200 --check --keep-denormals | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=other --dim R=37 --input=x=random:-200:200 --check | FileCheck %s
// RUN: %xstitch-run %s --function=below --dim R=4 --dim C=8 --emit=llvm-unopt | FileCheck %s --check-prefix=FAST
// RUN: %xstitch-run %s --function=below --dim R=4 --dim C=8 --emit=llvm-unopt --keep-denormals | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=other --dim R=4 --emit=llvm-unopt | FileCheck %s --check-prefix=EXACT
// CHECK-NOT: fail
// CHECK: check y: pass
// FAST: 0x4168000FE0000000
// EXACT-NOT: 0x4168000FE0000000
func @below(%x: f32[R, C]) -> (y: f32[R, C]) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %x, %mb
  %y = exp %d
  return %y
}

// Row c's maximum subtracted from column c: x - m can be positive.
func @other(%x: f32[R, R]) -> (y: f32[R, R]) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [1]} : f32[R, R]
  %d = sub %x, %mb
  %y = exp %d
  return %y
}
