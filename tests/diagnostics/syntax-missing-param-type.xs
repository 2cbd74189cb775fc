// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:11: error: parameter '%x' needs a type: write %x: f32[N]
func @f(%x, %y: f32[N]) -> (r) {
  return %y
}
