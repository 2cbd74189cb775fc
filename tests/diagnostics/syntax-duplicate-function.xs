// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
  return %x
}
// CHECK: [[@LINE+1]]:6: error: function '@f' is already defined
func @f(%x: f32[N]) -> (y) {
  return %x
}
