// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:12: error: unexpected character: '$'
  %y = neg $x
  return %y
}
