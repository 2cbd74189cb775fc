// A written result type that disagrees with the operands.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N, 8], %b: f32[N, 8]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: add: the result '%y' has type f32[N, 4], but its operands give f32[N, 8]
  %y = add %a, %b : f32[N, 4]
  return %y
}
