// concat operands must agree on the other dims.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N, 64], %b: f32[N, 32]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: concat: operand 1 has type f32[N, 32] but operand 0 has f32[N, 64]; concat operands must agree on every dim except dim 0
  %y = concat %a, %b {dim = 0}
  return %y
}
