// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
  %y = neg %x
// CHECK: [[@LINE+1]]:3: error: redefinition of value '%y'
  %y = abs %x
  return %y
}
