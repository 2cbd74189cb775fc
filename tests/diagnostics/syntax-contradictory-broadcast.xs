// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:46: error: contradictory fact: 3 and 4 meet in a broadcast (D), so they must be equal or one of them 1, but they read 3 and 4
func @f(%x: f32[N], %y: f32[M]) -> (r) where D == broadcast(3, 4) {
  return %x
}
