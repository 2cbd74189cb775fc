// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// A broadcast fact names its result symbol and two dims.
// CHECK: [[@LINE+1]]:63: error: expected ',' in 'D == broadcast(N, M)', got 'M'
func @f(%x: f32[N], %y: f32[M]) -> (r) where D == broadcast(N M) {
  return %x
}
