// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:16: error: use of undefined value '%z'
  %y = add %x, %z
  return %y
}
