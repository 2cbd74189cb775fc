// Kernels are tuned for the vectors their plan assumes ("prefer-vector-width":
// 256 bits for AVX2), and the inner loops of groups streaming f16 or bf16
// vectorize at the plan's width (16 lanes of 16-bit floats in 256 bits),
// not at the 4 lanes LLVM's cost model picks for their conversions; f32
// loops are left to the vectorizer.
// RUN: %xstitch-run %s --function=half_rows --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=HALF
// RUN: %xstitch-run %s --function=float_rows --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=FLOAT
// RUN: %xstitch-run --random-inputs %s --function=half_rows --dim R=37 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: fail
// PASS: check y: pass

// HALF: "prefer-vector-width"="256"
// HALF: !{!"llvm.loop.vectorize.width", i32 16}
// FLOAT: "prefer-vector-width"="256"
// FLOAT-NOT: llvm.loop.vectorize.width
func @half_rows(%x: f16[R, 768], %g: f16[768], %b: f16[768]) -> (y: f16[R, 768]) {
  %y = layer_norm %x, %g, %b {epsilon = 1.0e-05}
  return %y
}

func @float_rows(%x: f32[R, 768], %g: f32[768], %b: f32[768]) -> (y: f32[R, 768]) {
  %y = layer_norm %x, %g, %b {epsilon = 1.0e-05}
  return %y
}
