// Shape and data-movement ops: result shapes and the constraints they collect.
// RUN: %xstitch-opt %s --passes=shape-inference | FileCheck %s

// reshape [B, S, 768] -> [T, 768] records T == B*S; T is then spelled B*S.
// CHECK-LABEL: func @reshape_merge(%x: f32[B, S, 768]) -> (y: f32[B*S, 768]) where T == B*S {
func @reshape_merge(%x: f32[B, S, 768]) -> (y) {
  // CHECK-NEXT: %r = reshape %x : f32[B*S, 768]
  %r = reshape %x : f32[T, 768]
  // CHECK-NEXT: %y = neg %r : f32[B*S, 768]
  %y = neg %r
  return %y
}

// CHECK-LABEL: func @reshape_static(%x: f32[N, 4, 8]) -> (y: f32[N, 32]) {
func @reshape_static(%x: f32[N, 4, 8]) -> (y) {
  // CHECK-NEXT: %y = reshape %x : f32[N, 32]
  %y = reshape %x : f32[N, 32]
  return %y
}

// Two reshapes whose products cannot be solved for one symbol form a group.
// CHECK-LABEL: func @reshape_group(%x: f32[B, S]) -> (y: f32[U, V]) where B*S == U*V {
func @reshape_group(%x: f32[B, S]) -> (y) {
  // CHECK-NEXT: %y = reshape %x : f32[U, V]
  %y = reshape %x : f32[U, V]
  return %y
}

// CHECK-LABEL: func @broadcast(%x: f32[N], %s: f32[]) -> (a: f32[N, 4], b: f32[2, N]) where N == M {
func @broadcast(%x: f32[N], %s: f32[]) -> (a, b) {
  // CHECK-NEXT: %a = broadcast %x {dims = [0]} : f32[N, 4]
  %a = broadcast %x {dims = [0]} : f32[N, 4]
  // CHECK-NEXT: %b = broadcast %x {dims = [1]} : f32[2, N]
  %b = broadcast %x {dims = [1]} : f32[2, M]
  return %a, %b
}

// CHECK-LABEL: func @transpose(%x: f32[B, S, H]) -> (y: f32[H, B, S]) {
func @transpose(%x: f32[B, S, H]) -> (y) {
  // CHECK-NEXT: %y = transpose %x {perm = [2, 0, 1]} : f32[H, B, S]
  %y = transpose %x {perm = [2, 0, 1]}
  return %y
}

// CHECK-LABEL: func @slice(%x: f32[S, 768]) -> (a: f32[S - 1, 768], b: f32[(S + 1)/2, 384]) {
func @slice(%x: f32[S, 768]) -> (a, b) {
  // CHECK-NEXT: %a = slice %x {limit = [S, 768], start = [1, 0]} : f32[S - 1, 768]
  %a = slice %x {start = [1, 0], limit = [S, 768]}
  // CHECK-NEXT: %b = slice %x {limit = [S, 768], start = [0, 0], step = [2, 2]} : f32[(S + 1)/2, 384]
  %b = slice %x {start = [0, 0], limit = [S, 768], step = [2, 2]}
  return %a, %b
}

// Slice bounds are rewritten with the class names too.
// CHECK-LABEL: func @slice_canonical(%x: f32[N], %y: f32[N]) -> (s: f32[N - 2]) where N == M {
func @slice_canonical(%x: f32[N], %y: f32[M]) -> (s) {
  // CHECK-NEXT: %a = add %x, %y : f32[N]
  %a = add %x, %y
  // CHECK-NEXT: %s = slice %a {limit = [N - 1], start = [1]} : f32[N - 2]
  %s = slice %a {start = [1], limit = [M - 1]}
  return %s
}

// concat sums the dim and equates the others.
// CHECK-LABEL: func @concat(%a: f32[N, 64], %b: f32[N, 32], %c: f32[N, K]) -> (y: f32[N, K + 96]) where N == M {
func @concat(%a: f32[N, 64], %b: f32[M, 32], %c: f32[N, K]) -> (y) {
  // CHECK-NEXT: %y = concat %a, %b, %c {dim = 1} : f32[N, K + 96]
  %y = concat %a, %b, %c {dim = 1}
  return %y
}

// CHECK-LABEL: func @pad(%x: f32[N, 4]) -> (y: f32[N + 3, 4]) {
func @pad(%x: f32[N, 4]) -> (y) {
  // CHECK-NEXT: %y = pad %x {high = [2, 0], low = [1, 0], mode = edge} : f32[N + 3, 4]
  %y = pad %x {low = [1, 0], high = [2, 0], mode = edge}
  return %y
}

// CHECK-LABEL: func @gather(%x: f32[V, D], %i: i64[B, S], %j: i32[V, K]) -> (g: f32[B, S, D], t: f32[V, K]) {
func @gather(%x: f32[V, D], %i: i64[B, S], %j: i32[V, K]) -> (g, t) {
  // CHECK-NEXT: %g = gather %x, %i {dim = 0} : f32[B, S, D]
  %g = gather %x, %i {dim = 0}
  // CHECK-NEXT: %t = take_along_axis %x, %j {dim = 1} : f32[V, K]
  %t = take_along_axis %x, %j {dim = 1}
  return %g, %t
}

// CHECK-LABEL: func @sources(%x: f32[N, 4]) -> (y: f32[N, 4]) {
func @sources(%x: f32[N, 4]) -> (y) {
  // CHECK-NEXT: %i = iota {dim = 1} : f32[N, 4]
  %i = iota {dim = 1} : f32[N, 4]
  // CHECK-NEXT: %c = constant {value = 0.5} : f32[N, 4]
  %c = constant {value = 0.5} : f32[N, 4]
  // CHECK-NEXT: %d = constant {value = dense<[1.0, 2.0, 3.0, 4.0]>} : f32[4]
  %d = constant {value = dense<[1.0, 2.0, 3.0, 4.0]>} : f32[4]
  // CHECK-NEXT: %e = broadcast %d {dims = [1]} : f32[N, 4]
  %e = broadcast %d {dims = [1]} : f32[N, 4]
  // CHECK-NEXT: %s = add %i, %c : f32[N, 4]
  %s = add %i, %c
  // CHECK-NEXT: %y = mul %s, %e : f32[N, 4]
  %y = mul %s, %e
  return %y
}
