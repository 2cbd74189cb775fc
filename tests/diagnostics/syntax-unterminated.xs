// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
  %y = neg %x
// CHECK: [[@LINE+1]]:1: error: function '@f' is not terminated: expected 'return' and '}'
