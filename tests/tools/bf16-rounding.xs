// Rounding to bf16 rounds the exact value once, as the interpreter does, on
// the CPU and in the NVIDIA simulation, compared exactly: from f64 through
// f32 rounded to odd (a plain f64 -> f32 -> bf16 rounds twice and turns
// 1 + 2^-8 + 1e-14, just above a bf16 tie, into the tie and then down), and
// from i64 beyond 2^24 through its top bits and a sticky bit.
// RUN: %xstitch-run --random-inputs %s --function from_f64 --input si=random:1:2 --check --atol=0 --rtol=0 | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function from_f64 --input si=random:1:2 --check --atol=0 --rtol=0 --device=nvptx-sim | FileCheck %s
// RUN: %python %S/write_npy.py %t.npy 72339069014638593 -72339069014638593 1157425104234217473 3 4629700416936869888 -9223372036854775808 0 -1 16777217 1103806595072
// RUN: %xstitch-run --random-inputs %s --function from_i64 --input x=%t.npy --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=I64
// RUN: %xstitch-run --random-inputs %s --function from_i64 --input x=%t.npy --check --atol=0 --rtol=0 --device=nvptx-sim | FileCheck %s --check-prefix=I64
// CHECK-NOT: FAIL
// CHECK: check y: pass (6 elements, max abs error 0, atol 0 rtol 0)
// I64-NOT: FAIL
// I64: check y: pass (10 elements, max abs error 0, atol 0 rtol 0)
func @from_f64(%si: i32[]) -> (y: bf16[6]) {
  %c = constant {value = dense<[1.00390625000001, 1.0039062499999, 1.01171875, 1.0039062, -1.00390625000001, 3.0e38]>} : f64[6]
  %s = cast %si {to = f64}
  %sb = broadcast %s {dims = []} : f64[6]
  %x = mul %c, %sb
  %y = cast %x {to = bf16}
  return %y
}

func @from_i64(%x: i64[N]) -> (y: bf16[N]) {
  %y = cast %x {to = bf16}
  return %y
}
