// broadcast dims must be strictly increasing.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[4, N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: broadcast: dims = [1, 0] must be strictly increasing
  %y = broadcast %x {dims = [1, 0]} : f32[N, 4]
  return %y
}
