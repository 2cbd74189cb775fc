// Element-wise operands need the same element type.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N], %b: f16[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: add: operand 1 has type f16[N] but operand 0 has f32[N]; element-wise operands must have the same element type (insert a cast)
  %y = add %a, %b
  return %y
}
