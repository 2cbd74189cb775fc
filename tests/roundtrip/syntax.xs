// Every construct of the text format prints in canonical form and reads back
// to the same text.
// RUN: %xstitch-opt %s > %t && %xstitch-opt %t | diff %t -
// RUN: %xstitch-opt %s | FileCheck %s

// CHECK-LABEL: func @signature(%x: f32[B, B*S, 768], %s: i64[]) -> (y: f32[B, B*S, 768], n) where T == B*S, S % 8 == 0, 1 <= B <= 64 {
func @signature(%x: f32[B, S*B, 768], %s: i64[]) -> (y: f32[B, B*S, 768], n)
    where T == S*B, S%8 == 0, 1 <= B <= 64 {
  // CHECK-NEXT: %y = neg %x{{$}}
  %y = neg %x
  // CHECK-NEXT: return %y, %s
  return %y, %s
}

// CHECK-LABEL: func @attributes(
func @attributes(%a: f32[N, 4], %i: i32[N]) -> (r) {
  // CHECK-NEXT: %c = compare %a, %a {dir = lt}
  %c = compare %a, %a {dir = lt}
  // CHECK-NEXT: %h = cast %a {to = f16} : f16[N, 4]
  %h = cast %a {to = f16} : f16[N, 4]
  // CHECK-NEXT: %p = pad %a {high = [0, 1], low = [2, 0], mode = edge, value = -1.5}
  %p = pad %a {value = -1.5, mode = edge, low = [2, 0], high = [0, 1]}
  // CHECK-NEXT: %s = slice %a {limit = [N - 1, 4], start = [1, 0], step = [1, 2]}
  %s = slice %a {start = [1, 0], limit = [-1 + N, 4], step = [1, 2]}
  // CHECK-NEXT: %l = layer_norm %a {axis = 1, epsilon = 1.0e-05}
  %l = layer_norm %a {epsilon = 1e-5, axis = 1}
  // CHECK-NEXT: %e = pad %a {high = [0, 0], low = [0, 0], value = nan}
  %e = pad %a {low = [0, 0], high = [0, 0], value = nan}
  // CHECK-NEXT: %f = pad %a {high = [0, 0], low = [0, 0], value = -inf}
  %f = pad %a {low = [0, 0], high = [0, 0], value = -inf}
  // CHECK-NEXT: %g = gather %a, %i {dim = 0}
  %g = gather %a, %i {dim = 0}
  // CHECK-NEXT: %cat = concat %a, %a, %a {dim = -1}
  %cat = concat %a, %a, %a {dim = -1}
  // CHECK-NEXT: %r = add %l, %a : f32[N, 4]
  %r = add %l, %a : f32[N, 4]
  return %r
}

// An empty list ends a literal's nesting: dense<[[]]> fills i64[1, 0, 3].
// CHECK-LABEL: func @literals() -> (a, b, c, d, e) {
func @literals() -> (a, b, c, d, e) {
  // CHECK-NEXT: %a = constant {value = dense<{{\[}}[1, 2], [3, 4]]>} : i32[2, 2]
  %a = constant {value = dense<[[1, 2], [3, 4]]>} : i32[2, 2]
  // CHECK-NEXT: %b = constant {value = dense<[1.0, -2.5, nan, inf]>} : f32[4]
  %b = constant {value = dense<[1, -2.5, nan, inf]>} : f32[4]
  // CHECK-NEXT: %c = constant {value = -9223372036854775808} : i64[]
  %c = constant {value = -9223372036854775808} : i64[]
  // CHECK-NEXT: %d = iota {dim = 1} : i64[3, K]
  %d = iota {dim = 1} : i64[3, K]
  // CHECK-NEXT: %e = constant {value = dense<{{\[}}[]]>} : i64[1, 0, 3]
  %e = constant {value = dense<[[]]>} : i64[1, 0, 3]
  return %a, %b, %c, %d, %e
}

// Dims print in canonical form: higher degree first, then by name, the
// constant last; a leading '-' negates the whole term.
// CHECK-LABEL: func @dims(%x: f32[2*N + 1, (S + 1)/2, -S/2 + 4, N*N, B*S - 1]) -> (y) {
func @dims(%x: f32[1 + N*2, (S+1)/2, 4 - S/2, N*N, S*B - 1]) -> (y) {
  // CHECK-NEXT: %0 = reshape %x : f32[B*N*N*S*((S + 1)/2)]
  %0 = reshape %x : f32[(S+1)/2 * N * B * S * N]
  // CHECK-NEXT: %1 = broadcast %0 {dims = [1]} : f32[2, B*N*N*S*((S + 1)/2)]
  %1 = broadcast %0 {dims = [1]} : f32[2, B*N*N*S*((S + 1)/2)]
  return %1
}

// A module holds several functions; comments and layout do not matter.
// CHECK-LABEL: func @empty() -> () {
// CHECK-NEXT: return{{$}}
func @empty()->(){return}
