// gather needs integer indices.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[V, D], %i: f32[K]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: gather: operand 1 has type f32[K], but gather needs integer indices (i8, u8, i32, i64) there
  %y = gather %x, %i {dim = 0}
  return %y
}
