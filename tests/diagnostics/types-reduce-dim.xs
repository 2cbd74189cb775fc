// Reduced dims must be in range.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[N, 768]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: reduce_sum: dims = [2] has 2, out of range for f32[N, 768] of rank 2
  %y = reduce_sum %x {dims = [2]}
  return %y
}
