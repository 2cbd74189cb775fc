// perm must be a permutation.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[N, 4]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: transpose: perm = [0, 0] is not a permutation of [0, 1] for the operand f32[N, 4]
  %y = transpose %x {perm = [0, 0]}
  return %y
}
