// A slice start after its limit.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[S, 768]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: slice: start S of dim 0 exceeds its limit S - 1
  %y = slice %x {start = [S, 0], limit = [S - 1, 768]}
  return %y
}
