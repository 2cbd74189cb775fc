// iota's dim must be in range.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f() -> (y) {
  // CHECK: [[@LINE+1]]:3: error: iota: dim = 2 is out of range for f32[N, 4] of rank 2; it must be in [0, 1]
  %y = iota {dim = 2} : f32[N, 4]
  return %y
}
