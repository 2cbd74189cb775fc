// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:8: error: 'add' takes 2 operands, got 1
  %y = add %x
  return %y
}
