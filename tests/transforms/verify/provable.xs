// After shape inference every dim the rules equate is provably equal, so a
// strict re-verification (run after each pass) succeeds; a bound that is
// only known at run time (a slice limit of S - 1 on a dim S) is accepted.
// RUN: %xstitch-opt %s --passes=shape-inference,verify | FileCheck %s

// CHECK-LABEL: func @f(%x: f32[S, 64], %y: f32[S, 64]) -> (z: f32[S - 1, 128]) where S == R {
func @f(%x: f32[S, 64], %y: f32[R, 64]) -> (z) {
  // CHECK-NEXT: %c = concat %x, %y {dim = 1} : f32[S, 128]
  %c = concat %x, %y {dim = 1}
  // CHECK-NEXT: %z = slice %c {limit = [S, 128], start = [1, 0]} : f32[S - 1, 128]
  %z = slice %c {start = [1, 0], limit = [R, 128]}
  return %z
}
