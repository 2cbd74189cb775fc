// RUN: %xstitch-opt %s --broadcast-variant=0 | FileCheck %s --check-prefix=CHAIN
// RUN: %xstitch-opt %s --broadcast-variant=1 | FileCheck %s --check-prefix=ONE
// RUN: %xstitch-opt %s --broadcast-variant=3 | FileCheck %s --check-prefix=BOTH
// RUN: %expect-exit 2 %xstitch-opt %s --broadcast-variant=4 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect-exit 2 %xstitch-opt %S/basic.xs --passes=shape-inference,stitch-plan 2>&1 | FileCheck %s --check-prefix=PLAN

// A chain: E is where D (itself a broadcast of N and M) meets K. Variants run
// over both facts' relations, every pair equal first; 2 <= K rules out the
// relations with K == 1, which leaves four.
// CHAIN: // broadcast variant 0 of 4: assumes M == N, K == N
// CHAIN: func @chain(%x: f32[N], %y: f32[N], %w: f32[N]) -> (z)
// CHAIN-SAME: where N == M, N == K, N == D, N == E, N >= 2 {
// ONE: // broadcast variant 1 of 4: assumes N == 1, K == M
// ONE: func @chain(%x: f32[1], %y: f32[M], %w: f32[M]) -> (z)
// BOTH: // broadcast variant 3 of 4: assumes N == 1, M == 1
// BOTH: func @chain(%x: f32[1], %y: f32[1], %w: f32[K]) -> (z)
// BOTH-SAME: where K == E, N == 1, M == 1, D == 1, K >= 2 {
// COUNT: error: @chain has 4 broadcast variant(s), no variant 4

// The planner takes no function with an open broadcast fact: the driver
// compiles its variants instead.
// PLAN: basic.xs:{{[0-9]+}}:{{[0-9]+}}: error: @add has dims that meet in a broadcast (D == broadcast(N, M)); compile it through the driver
func @chain(%x: f32[N], %y: f32[M], %w: f32[K]) -> (z) where D == broadcast(N, M), E == broadcast(D, K), 2 <= K {
  %xb = broadcast %x {dims = [0]} : f32[D]
  %yb = broadcast %y {dims = [0]} : f32[D]
  %s = add %xb, %yb
  %sb = broadcast %s {dims = [0]} : f32[E]
  %wb = broadcast %w {dims = [0]} : f32[E]
  %z = mul %sb, %wb
  return %z
}
