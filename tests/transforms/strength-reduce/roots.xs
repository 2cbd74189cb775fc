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

// One over a square root, as PyTorch exports torch.rsqrt: the rsqrt alone
// (no multiplication by 1 that would keep it from being a row's value).
// CHECK-LABEL: func @exported_rsqrt
// CHECK-NOT: = mul
// CHECK: %[[R:[0-9]+]] = rsqrt %v : f32[R]
// CHECK-NEXT: %b = broadcast %[[R]] {dims = [0]} : f32[R, D]
// CHECK-NEXT: %y = mul %x, %b : f32[R, D]
func @exported_rsqrt(%x: f32[R, D], %v: f32[R]) -> (y: f32[R, D]) {
  %one = constant {value = 1.0} : f32[R]
  %s = sqrt %v
  %r = div %one, %s
  %b = broadcast %r {dims = [0]} : f32[R, D]
  %y = mul %x, %b
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

// Division by a constant is multiplication by its reciprocal rounded to the
// type: exactly the quotient for powers of two, within an ulp of it for
// others (1/3 as the f32 nearest it); a constant whose reciprocal is no
// normal number of the type (2^15 in f16) stays a division.
// CHECK-LABEL: func @constants
// CHECK: %[[EIGHTH:[0-9]+]] = constant {value = 0.125} : f32[N]
// CHECK-NEXT: %[[A:[0-9]+]] = mul %x, %[[EIGHTH]] : f32[N]
// CHECK-NEXT: %[[TWO:[0-9]+]] = constant {value = 2.0} : f32[N]
// CHECK-NEXT: %[[B:[0-9]+]] = mul %x, %[[TWO]] : f32[N]
// CHECK-NEXT: %[[THIRD:[0-9]+]] = constant {value = 0.3333333432674408} : f32[N]
// CHECK-NEXT: %[[C:[0-9]+]] = mul %x, %[[THIRD]] : f32[N]
// CHECK-NEXT: %d = div %h, %big : f16[N]
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %d
func @constants(%x: f32[N], %h: f16[N]) -> (a: f32[N], b: f32[N], c: f32[N], d: f16[N]) {
  %eight = constant {value = 8.0} : f32[N]
  %half = constant {value = 0.5} : f32[N]
  %three = constant {value = 3.0} : f32[N]
  %big = constant {value = 32768.0} : f16[N]
  %a = div %x, %eight
  %b = div %x, %half
  %c = div %x, %three
  %d = div %h, %big
  return %a, %b, %c, %d
}
