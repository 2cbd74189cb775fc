// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:13: error: unknown element type 'f31'; expected one of f32, f16, bf16, f64, i1, i8, u8, i32, i64
func @f(%x: f31[N]) -> (r) {
  return %x
}
