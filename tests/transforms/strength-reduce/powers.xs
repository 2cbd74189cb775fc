// RUN: %xstitch-opt %s --passes=shape-inference,strength-reduce,dce | FileCheck %s

// The exponents an exporter writes become products, roots and reciprocals.
// CHECK-LABEL: func @exponents
// CHECK-NOT: = pow
// CHECK: %[[ONE:[0-9]+]] = constant {value = 1.0} : f32[N]
// CHECK-NEXT: %[[SQ:[0-9]+]] = mul %x, %x : f32[N]
// CHECK-NEXT: %[[SQ3:[0-9]+]] = mul %x, %x : f32[N]
// CHECK-NEXT: %[[CUBE:[0-9]+]] = mul %[[SQ3]], %x : f32[N]
// CHECK-NEXT: %[[SQ4:[0-9]+]] = mul %x, %x : f32[N]
// CHECK-NEXT: %[[FOURTH:[0-9]+]] = mul %[[SQ4]], %[[SQ4]] : f32[N]
// CHECK-NEXT: %[[ROOT:[0-9]+]] = sqrt %x : f32[N]
// CHECK-NEXT: %[[RROOT:[0-9]+]] = rsqrt %x : f32[N]
// CHECK-NEXT: %[[RECIP:[0-9]+]] = reciprocal %x : f32[N]
// CHECK-NEXT: %[[SQ2:[0-9]+]] = mul %x, %x : f32[N]
// CHECK-NEXT: %[[RSQ:[0-9]+]] = reciprocal %[[SQ2]] : f32[N]
// CHECK-NEXT: return %[[ONE]], %x, %[[SQ]], %[[CUBE]], %[[FOURTH]], %[[ROOT]], %[[RROOT]], %[[RECIP]], %[[RSQ]]
func @exponents(%x: f32[N]) -> (a: f32[N], b: f32[N], c: f32[N], d: f32[N], e: f32[N], f: f32[N], g: f32[N], h: f32[N], i: f32[N]) {
  %c0 = constant {value = 0.0} : f32[N]
  %c1 = constant {value = 1.0} : f32[N]
  %c2 = constant {value = 2.0} : f32[N]
  %c3 = constant {value = 3.0} : f32[N]
  %c4 = constant {value = 4.0} : f32[N]
  %ch = constant {value = 0.5} : f32[N]
  %cmh = constant {value = -0.5} : f32[N]
  %cm1 = constant {value = -1.0} : f32[N]
  %cm2 = constant {value = -2.0} : f32[N]
  %a = pow %x, %c0
  %b = pow %x, %c1
  %c = pow %x, %c2
  %d = pow %x, %c3
  %e = pow %x, %c4
  %f = pow %x, %ch
  %g = pow %x, %cmh
  %h = pow %x, %cm1
  %i = pow %x, %cm2
  return %a, %b, %c, %d, %e, %f, %g, %h, %i
}

// Other exponents, exponents that are not one constant, and integer powers
// stay.
// CHECK-LABEL: func @stays
// CHECK: %p = pow %x, %c : f32[N]
// CHECK: %q = pow %x, %e : f32[N]
// CHECK: %r = pow %x2, %v : f32[2]
// CHECK: %s = pow %k, %k2 : i32[N]
func @stays(%x: f32[N], %e: f32[N], %k: i32[N]) -> (p: f32[N], q: f32[N], r: f32[2], s: i32[N]) {
  %c = constant {value = 1.5} : f32[N]
  %p = pow %x, %c
  %q = pow %x, %e
  %x2 = slice %x {start = [0], limit = [2]}
  %v = constant {value = dense<[2.0, 3.0]>} : f32[2]
  %r = pow %x2, %v
  %k2 = constant {value = 2} : i32[N]
  %s = pow %k, %k2
  return %p, %q, %r, %s
}
