// Padding must be non-negative.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: pad: low = [-1] has a negative entry for dim 0; padding must be non-negative (use slice to remove elements)
  %y = pad %x {low = [-1], high = [0]}
  return %y
}
