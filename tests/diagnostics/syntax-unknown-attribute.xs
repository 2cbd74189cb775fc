// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N, M]) -> (y) {
// CHECK: [[@LINE+1]]:23: error: unknown attribute 'dim' for 'reduce_sum' (it takes attributes dims)
  %y = reduce_sum %x {dim = [1]}
  return %y
}
