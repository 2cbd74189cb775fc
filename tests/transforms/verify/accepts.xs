// The verify pass changes nothing and accepts valid IR, including text whose
// result types are left out and whose equalities shape-inference will collect.
// RUN: %xstitch-opt %s --passes=verify | FileCheck %s
// RUN: %xstitch-opt %s --passes=shape-inference,verify | FileCheck %s --check-prefix=INFERRED

// CHECK-LABEL: func @untyped(%a: f32[N], %b: f32[M]) -> (y) {
// CHECK-NEXT: %s = add %a, %b{{$}}
// CHECK-NEXT: %y = exp %s{{$}}
// INFERRED-LABEL: func @untyped(%a: f32[N], %b: f32[N]) -> (y: f32[N]) where N == M {
// INFERRED-NEXT: %s = add %a, %b : f32[N]
// INFERRED-NEXT: %y = exp %s : f32[N]
func @untyped(%a: f32[N], %b: f32[M]) -> (y) {
  %s = add %a, %b
  %y = exp %s
  return %y
}

// Written types are checked through the where clause.
// CHECK-LABEL: func @typed(%x: f32[B, S, 768]) -> (y: f32[T, 768]) where T == B*S {
// CHECK-NEXT: %r = reshape %x : f32[B*S, 768]
// CHECK-NEXT: %y = neg %r : f32[T, 768]
func @typed(%x: f32[B, S, 768]) -> (y: f32[T, 768]) where T == B*S {
  %r = reshape %x : f32[B*S, 768]
  %y = neg %r : f32[T, 768]
  return %y
}

// CHECK-LABEL: func @sources() -> (c: i8[2, 2], d: f32[3]) {
func @sources() -> (c: i8[2, 2], d: f32[3]) {
  %c = constant {value = dense<[[1, -2], [127, -128]]>} : i8[2, 2]
  %d = iota {dim = 0} : f32[3]
  return %c, %d
}
