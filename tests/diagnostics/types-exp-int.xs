// exp needs a float element type.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: i32[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: exp: the operand has type i32[N], but exp needs a float type (f32, f16, bf16, f64)
  %y = exp %x
  return %y
}
