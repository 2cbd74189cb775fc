// RUN: %xstitch-opt %s --passes=shape-inference,strength-reduce,dce | FileCheck %s

// Division by a row's square root, broadcast back over the row: one rsqrt
// per row and a multiplication per element.
// CHECK-LABEL: func @normalize
// CHECK-NOT: = div
// CHECK-NOT: = sqrt
// CHECK: %[[R:[0-9]+]] = rsqrt %v : f32[R]
// CHECK-NEXT: %[[B:[0-9]+]] = broadcast %[[R]] {dims = [0]} : f32[R, D]
// CHECK-NEXT: %[[Y:[0-9]+]] = mul %x, %[[B]] : f32[R, D]
// CHECK-NEXT: return %[[Y]]
func @normalize(%x: f32[R, D], %v: f32[R]) -> (y: f32[R, D]) {
  %s = sqrt %v
  %b = broadcast %s {dims = [0]} : f32[R, D]
  %y = div %x, %b
  return %y
}

// Directly, and as a reciprocal; a square root used elsewhere stays for that
// use.
// CHECK-LABEL: func @direct
// CHECK: %s = sqrt %v : f32[N]
// CHECK-NEXT: %[[R1:[0-9]+]] = rsqrt %v : f32[N]
// CHECK-NEXT: %[[Y:[0-9]+]] = mul %x, %[[R1]] : f32[N]
// CHECK-NEXT: %[[R2:[0-9]+]] = rsqrt %v : f32[N]
// CHECK-NEXT: return %[[Y]], %[[R2]], %s
func @direct(%x: f32[N], %v: f32[N]) -> (y: f32[N], r: f32[N], s: f32[N]) {
  %s = sqrt %v
  %y = div %x, %s
  %r = reciprocal %s
  return %y, %r, %s
}

// A square root as the dividend, and integer division, stay.
// CHECK-LABEL: func @stays
// CHECK: %y = div %s, %x : f32[N]
// CHECK: %q = div %a, %b : i32[N]
func @stays(%x: f32[N], %v: f32[N], %a: i32[N], %b: i32[N]) -> (y: f32[N], q: i32[N]) {
  %s = sqrt %v
  %y = div %s, %x
  %q = div %a, %b
  return %y, %q
}
