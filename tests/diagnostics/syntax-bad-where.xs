// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:36: error: expected '==', '%', '<=' or '>=' in a where fact, got '<'
func @f(%x: f32[N]) -> (r) where N < 4 {
  return %x
}
