// gelu's approximate must be none or tanh.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: gelu: unknown value 'fast' of attribute 'approximate'; it must be none, tanh
  %y = gelu %x {approximate = fast}
  return %y
}
