// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// Each dim expands to 9 terms; the element count, their product, to 729.
// CHECK: [[@LINE+1]]:67: error: the element count of this shape is too large to expand
func @f(%x: f32[(A + B + C)*(D + E + F), (G + H + I)*(J + K + L), (M + N + O)*(P + Q + R)]) -> (y) {
  %y = neg %x
  return %y
}
