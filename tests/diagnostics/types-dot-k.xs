// dot's contracted dims must agree.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[M, 64], %b: f32[32, N]) -> (c) {
  // CHECK: [[@LINE+1]]:3: error: dot: the contracted dims differ: f32[M, 64] has K = 64 but f32[32, N] has K = 32
  %c = dot %a, %b
  return %c
}
