// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N, M]) -> (y) {
// CHECK: [[@LINE+1]]:29: error: attribute 'perm' of 'transpose' must be a list of integers, got '1'
  %y = transpose %x {perm = 1}
  return %y
}
