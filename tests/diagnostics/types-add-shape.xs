// Element-wise operands need identical shapes.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N, 768], %b: f32[N, 64]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: add: operand 1 has type f32[N, 64] but operand 0 has f32[N, 768]; element-wise operands must have identical shapes (insert a broadcast)
  %y = add %a, %b
  return %y
}
