// RUN: %xstitch-opt %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %xstitch-opt %s --broadcast-variant=0 --passes=shape-inference,algebraic-simplify,dce | FileCheck %s --check-prefix=EQUAL
// RUN: %xstitch-opt %s --broadcast-variant=1 --passes=shape-inference,algebraic-simplify,dce | FileCheck %s --check-prefix=FIRST
// RUN: %xstitch-opt %s --broadcast-variant=2 --passes=shape-inference,algebraic-simplify,dce | FileCheck %s --check-prefix=SECOND
// RUN: %expect-exit 2 %xstitch-opt %s --broadcast-variant=3 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %expect-exit 2 %xstitch-opt %s --broadcast-variant=x 2>&1 | FileCheck %s --check-prefix=MALFORMED

// N and M meet in a numpy broadcast: at a call they are equal or one is 1,
// and D is the dim they broadcast to. The fact survives printing.
// ROUNDTRIP: func @add(%x: f32[N, 4], %y: f32[M, 4]) -> (z)
// ROUNDTRIP-SAME: where D == broadcast(N, M)
// ROUNDTRIP: %xb = broadcast %x {dims = [0, 1]} : f32[D, 4]

// Variant 0 takes them equal: both broadcasts are the identity and fold.
// EQUAL: // broadcast variant 0 of 3: assumes M == N
// EQUAL: func @add(%x: f32[N, 4], %y: f32[N, 4]) -> (z: f32[N, 4]) where N == M, N == D {
// EQUAL-NEXT: %z = add %x, %y : f32[N, 4]

// Variant 1 takes N == 1: %x's rows broadcast to M, %y is used as it is.
// FIRST: // broadcast variant 1 of 3: assumes N == 1
// FIRST: func @add(%x: f32[1, 4], %y: f32[M, 4]) -> (z: f32[M, 4]) where M == D, N == 1 {
// FIRST-NEXT: %xb = broadcast %x {dims = [0, 1]} : f32[M, 4]
// FIRST-NEXT: %z = add %xb, %y : f32[M, 4]

// SECOND: // broadcast variant 2 of 3: assumes M == 1
// SECOND: func @add(%x: f32[N, 4], %y: f32[1, 4]) -> (z: f32[N, 4]) where N == D, M == 1 {
// SECOND-NEXT: %yb = broadcast %y {dims = [0, 1]} : f32[N, 4]
// SECOND-NEXT: %z = add %x, %yb : f32[N, 4]

// RANGE: xstitch-opt: error: @add has 3 broadcast variant(s), no variant 3
// MALFORMED: xstitch-opt: error: --broadcast-variant needs a variant number K >= 0, got 'x'
func @add(%x: f32[N, 4], %y: f32[M, 4]) -> (z) where D == broadcast(N, M) {
  %xb = broadcast %x {dims = [0, 1]} : f32[D, 4]
  %yb = broadcast %y {dims = [0, 1]} : f32[D, 4]
  %z = add %xb, %yb
  return %z
}
