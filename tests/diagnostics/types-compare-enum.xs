// compare's dir must be one of the six comparisons.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%a: f32[N], %b: f32[N]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: compare: unknown value 'less' of attribute 'dir'; it must be eq, ne, lt, le, gt, ge
  %y = compare %a, %b {dir = less}
  return %y
}
