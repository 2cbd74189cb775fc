// Float to integer casts beyond every integer type's range truncate and wrap
// modulo 2^width, as the reference interpreter and docs/ir.md define them,
// on the CPU and in the NVIDIA simulation: 1e19 and -1e19 are beyond int64,
// 1.8446744e19 is just under 2^64, 1e30 far beyond. The scale %si (1 at run
// time) keeps constant folding from computing the casts at compile time.
// RUN: %xstitch-run --random-inputs %s --input si=random:1:2 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --input si=random:1:2 --check --device=nvptx-sim | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: check y: pass (8 elements, max abs error 0, atol 0 rtol 0)
// CHECK: check z: pass (8 elements, max abs error 0, atol 0 rtol 0)
// CHECK: check w: pass (8 elements, max abs error 0, atol 0 rtol 0)
func @f(%si: i32[]) -> (y: i64[8], z: i32[8], w: u8[8]) {
  %c = constant {value = dense<[1.0e19, -1.0e19, 3.0e9, -3.0e9, 1.0e30, -2.5, 9.3e18, 1.8446744e19]>} : f32[8]
  %s = cast %si {to = f32}
  %sb = broadcast %s {dims = []} : f32[8]
  %x = mul %c, %sb
  %y = cast %x {to = i64}
  %z = cast %x {to = i32}
  %w = cast %x {to = u8}
  return %y, %z, %w
}
