// reshape must keep the number of elements.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[4, 6]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: reshape: the operand f32[4, 6] has 24 elements but the result type f32[5, 5] has 25
  %y = reshape %x : f32[5, 5]
  return %y
}
