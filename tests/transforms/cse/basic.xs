// RUN: %xstitch-opt %s --passes=shape-inference,cse | FileCheck %s

// Identical ops merge into the first; its users and the function results
// follow.
// CHECK-LABEL: func @identical
// CHECK-NEXT: %x = exp %a : f32[N]
// CHECK-NEXT: %z = add %x, %x : f32[N]
// CHECK-NEXT: return %z, %x
func @identical(%a: f32[N]) -> (r: f32[N], s: f32[N]) {
  %x = exp %a
  %y = exp %a
  %z = add %x, %y
  return %z, %y
}

// Commutative ops match with their operands swapped.
// CHECK-LABEL: func @commutative
// CHECK-NEXT: %x = mul %a, %b : f32[N]
// CHECK-NEXT: %z = sub %x, %x : f32[N]
func @commutative(%a: f32[N], %b: f32[N]) -> (r: f32[N]) {
  %x = mul %a, %b
  %y = mul %b, %a
  %z = sub %x, %y
  return %z
}

// Non-commutative ops with swapped operands are different values.
// CHECK-LABEL: func @not_commutative
// CHECK-NEXT: %x = sub %a, %b : f32[N]
// CHECK-NEXT: %y = sub %b, %a : f32[N]
// CHECK-NEXT: %z = div %x, %y : f32[N]
func @not_commutative(%a: f32[N], %b: f32[N]) -> (r: f32[N]) {
  %x = sub %a, %b
  %y = sub %b, %a
  %z = div %x, %y
  return %z
}

// Merging operands makes their users identical: one walk merges the chain.
// CHECK-LABEL: func @chain
// CHECK-NEXT: %x = neg %a : f32[N]
// CHECK-NEXT: %p = tanh %x : f32[N]
// CHECK-NEXT: %r = add %p, %p : f32[N]
// CHECK-NEXT: return %r
func @chain(%a: f32[N]) -> (r: f32[N]) {
  %x = neg %a
  %y = neg %a
  %p = tanh %x
  %q = tanh %y
  %r = add %p, %q
  return %r
}

// Ops that differ only in attributes are different values.
// CHECK-LABEL: func @different_attributes
// CHECK-NEXT: %s0 = reduce_sum %a {dims = [0]} : f32[M]
// CHECK-NEXT: %s1 = reduce_sum %a {dims = [1]} : f32[N]
// CHECK-NEXT: %c0 = compare %b, %b {dir = lt} : i1[N, M]
// CHECK-NEXT: %c1 = compare %b, %b {dir = gt} : i1[N, M]
func @different_attributes(%a: f32[N, M], %b: f32[N, M]) -> (r: f32[M], s: f32[N], t: i1[N, M], u: i1[N, M]) {
  %s0 = reduce_sum %a {dims = [0]}
  %s1 = reduce_sum %a {dims = [1]}
  %c0 = compare %b, %b {dir = lt}
  %c1 = compare %b, %b {dir = gt}
  return %s0, %s1, %c0, %c1
}

// Equal attributes merge.
// CHECK-LABEL: func @same_attributes
// CHECK-NEXT: %s0 = reduce_max %a {dims = [1]} : f32[N]
// CHECK-NEXT: return %s0, %s0
func @same_attributes(%a: f32[N, M]) -> (r: f32[N], s: f32[N]) {
  %s0 = reduce_max %a {dims = [1]}
  %s1 = reduce_max %a {dims = [1]}
  return %s0, %s1
}
