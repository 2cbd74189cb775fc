// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:46: error: a broadcast fact reads 'D == broadcast(N, M)' with D a symbol
func @f(%x: f32[N], %y: f32[M]) -> (r) where 3 == broadcast(N, M) {
  return %x
}
