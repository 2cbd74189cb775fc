// RUN: %xstitch-opt %s --specialize=B=8 --specialize=S=128 --passes=shape-inference | FileCheck %s
// RUN: %expect-exit 2 %xstitch-opt %s --specialize=S=7 2>&1 | FileCheck %s --check-prefix=CONTRADICTS
// RUN: %expect-exit 2 %xstitch-opt %s --specialize=S 2>&1 | FileCheck %s --check-prefix=MALFORMED

// Every type and dim attribute loses the symbols given; the others stay, and
// the facts record the values (so a call at other dims is refused).
// CHECK-LABEL: func @attention_scores
// CHECK-SAME: (%q: f32[8, 128, H, 64], %k: f32[8, 128, H, 64])
// CHECK-SAME: where B == 8, S == 128
// CHECK: %s = dot
// CHECK-SAME: : f32[8, H, 128, 128]
// CHECK: %n = dim_value {dims = [128]} : f32[]
// CHECK: %p = slice %y {limit = [8, H, 128, 127], start = [0, 0, 0, 0]}
// CHECK-SAME: f32[8, H, 128, 127]

// CONTRADICTS: error: cannot specialize S as given: 7 % 8 == 0 does not hold (it is 7)
// MALFORMED: error: --specialize needs SYM=N, got 'S'
func @attention_scores(%q: f32[B, S, H, 64], %k: f32[B, S, H, 64]) -> (y, p) where S % 8 == 0 {
  %qt = transpose %q {perm = [0, 2, 1, 3]}
  %kt = transpose %k {perm = [0, 2, 3, 1]}
  %s = dot %qt, %kt
  %n = dim_value {dims = [S]} : f32[]
  %nb = broadcast %n {dims = []} : f32[B, H, S, S]
  %y = div %s, %nb
  %p = slice %y {start = [0, 0, 0, 0], limit = [B, H, S, S - 1]}
  return %y, %p
}
