// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:8: error: unknown op 'ad'; did you mean 'add'?
  %y = ad %x, %x
  return %y
}
