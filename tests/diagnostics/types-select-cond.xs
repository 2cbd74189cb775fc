// select's condition must be i1.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%c: f32[N], %a: f32[N], %b: f32[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: select: the condition (operand 0) has type f32[N], but it must be i1 (produce it with compare, or cast to i1)
  %y = select %c, %a, %b
  return %y
}
