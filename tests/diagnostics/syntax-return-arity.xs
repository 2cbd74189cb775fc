// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y, z) {
// CHECK: [[@LINE+1]]:3: error: 'return' gives 1 value but function '@f' has 2 results
  return %x
}
