// layer_norm's scale has the normalized dims of x.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[R, 768], %g: f32[512]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: layer_norm: operand 1 has type f32[512], but it must be f32[768] (the operand's type over the normalized dims 1..1)
  %y = layer_norm %x, %g
  return %y
}
