// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:21: error: expected a dimension (an integer, a symbol or '('), got ']'
func @f(%x: f32[N + ]) -> (r) {
  return %x
}
