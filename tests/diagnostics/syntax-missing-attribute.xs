// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:8: error: 'compare' requires attribute 'dir' (an identifier)
  %y = compare %x, %x
  return %y
}
