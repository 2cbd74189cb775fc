// The where clause makes the two sizes provably different.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N], %b: f32[M]) -> (y) where N == 4, M == 5 {
  // CHECK: [[@LINE+1]]:3: error: mul: operand 1 has type f32[M] but operand 0 has f32[N]; element-wise operands must have identical shapes (insert a broadcast)
  %y = mul %a, %b
  return %y
}
