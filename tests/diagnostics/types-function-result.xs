// A declared function result type that disagrees with the returned value.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

// CHECK: [[@LINE+1]]:25: error: result 'y' is declared f32[3], but the returned value '%x' has type f32[4]
func @f(%x: f32[4]) -> (y: f32[3]) {
  return %x
}
