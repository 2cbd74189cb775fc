// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N, M]) -> (y) {
// CHECK: [[@LINE+1]]:35: error: attribute 'dims' of 'reduce_sum' is given twice
  %y = reduce_sum %x {dims = [1], dims = [0]}
  return %y
}
