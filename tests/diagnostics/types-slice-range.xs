// A slice limit beyond the dim's size.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[S, 768]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: slice: limit 800 of dim 1 exceeds the size 768 of the operand f32[S, 768]
  %y = slice %x {start = [0, 0], limit = [S, 800]}
  return %y
}
