// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:34: error: contradictory fact: N == N + 1 cannot hold for any sizes
func @f(%x: f32[N]) -> (r) where N == N + 1 {
  return %x
}
