// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:21: error: redefinition of value '%x'
func @f(%x: f32[N], %x: f32[N]) -> (y) {
  return %x
}
