// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:21: error: a dimension can only be divided by a positive integer constant, not 'M'
func @f(%x: f32[N / M]) -> (r) {
  return %x
}
