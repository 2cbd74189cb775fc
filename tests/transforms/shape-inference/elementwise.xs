// Element-wise ops: result types, and the equalities their operands imply.
// RUN: %xstitch-opt %s --passes=shape-inference | FileCheck %s

// CHECK-LABEL: func @unary(%x: f32[N, 768], %i: i32[N]) -> (e: f32[N, 768], n: i1[N, 768], b: i32[N], g: i32[N]) {
func @unary(%x: f32[N, 768], %i: i32[N]) -> (e, n, b, g) {
  // CHECK-NEXT: %e = exp %x : f32[N, 768]
  %e = exp %x
  // CHECK-NEXT: %n = is_nan %x : i1[N, 768]
  %n = is_nan %x
  // CHECK-NEXT: %b = not %i : i32[N]
  %b = not %i
  // CHECK-NEXT: %g = neg %i : i32[N]
  %g = neg %i
  return %e, %n, %b, %g
}

// An add of f32[N] and f32[M] implies N == M; M is renamed to N everywhere.
// CHECK-LABEL: func @unify(%a: f32[N], %b: f32[N]) -> (y: f32[N]) where N == M {
func @unify(%a: f32[N], %b: f32[M]) -> (y) {
  // CHECK-NEXT: %y = add %a, %b : f32[N]
  %y = add %a, %b
  return %y
}

// A symbol equal to a constant is replaced by the constant.
// CHECK-LABEL: func @constant_dim(%a: f32[B, 768], %b: f32[B, 768]) -> (y: f32[B, 768]) where H == 768 {
func @constant_dim(%a: f32[B, H], %b: f32[B, 768]) -> (y) {
  // CHECK-NEXT: %y = mul %a, %b : f32[B, 768]
  %y = mul %a, %b
  return %y
}

// CHECK-LABEL: func @compare_select(%a: f32[N], %b: f32[N]) -> (m: f32[N]) where N == K {
func @compare_select(%a: f32[N], %b: f32[K]) -> (m) {
  // CHECK-NEXT: %c = compare %a, %b {dir = gt} : i1[N]
  %c = compare %a, %b {dir = gt}
  // CHECK-NEXT: %m = select %c, %a, %b : f32[N]
  %m = select %c, %a, %b
  return %m
}

// CHECK-LABEL: func @cast_logical(%a: f32[N], %p: i1[N], %q: i1[N]) -> (h: f16[N], r: i1[N]) {
func @cast_logical(%a: f32[N], %p: i1[N], %q: i1[N]) -> (h, r) {
  // CHECK-NEXT: %h = cast %a {to = f16} : f16[N]
  %h = cast %a {to = f16}
  // CHECK-NEXT: %r = xor %p, %q : i1[N]
  %r = xor %p, %q
  return %h, %r
}

// A chain of equalities: every name of the class becomes the first one.
// CHECK-LABEL: func @chain(%a: f32[A], %b: f32[A], %c: f32[A]) -> (z: f32[A]) where A == B, A == C {
func @chain(%a: f32[A], %b: f32[B], %c: f32[C]) -> (z) {
  // CHECK-NEXT: %y = sub %b, %c : f32[A]
  %y = sub %b, %c
  // CHECK-NEXT: %z = div %a, %y : f32[A]
  %z = div %a, %y
  return %z
}

// A declared result type is a check that also contributes equalities.
// CHECK-LABEL: func @declared(%a: f32[N], %b: f32[N]) -> (y: f32[N]) where N == M, N == K {
func @declared(%a: f32[N], %b: f32[M]) -> (y: f32[K]) {
  // CHECK-NEXT: %y = max %a, %b : f32[N]
  %y = max %a, %b
  return %y
}
