// shape-inference rejects a written type that can never equal the inferred one.
// RUN: not %xstitch-opt %s --passes=shape-inference 2>&1 | FileCheck %s

func @f(%a: f32[N, 4], %b: f32[N, 4]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: add: the result '%y' is declared f32[N, 3], but f32[N, 4] is inferred; they can never be equal
  %y = add %a, %b : f32[N, 3]
  return %y
}
