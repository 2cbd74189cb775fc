// RUN: %xstitch-opt %s --passes=shape-inference,algebraic-simplify | FileCheck %s

// x+0, 0+x, x-0, x*1, 1*x, x/1 forward x; the simplified op is gone and its
// users read x.
// CHECK-LABEL: func @identities
// CHECK-NOT: = add
// CHECK-NOT: = sub
// CHECK-NOT: = mul
// CHECK-NOT: = div
// CHECK: %r = exp %x : f32[N]
// CHECK-NEXT: return %r, %x, %x, %x, %x, %x
func @identities(%x: f32[N]) -> (r: f32[N], a: f32[N], b: f32[N], c: f32[N], d: f32[N], e: f32[N]) {
  %zero = constant {value = 0.0} : f32[N]
  %one = constant {value = 1.0} : f32[N]
  %a0 = add %x, %zero
  %a1 = add %zero, %a0
  %s = sub %a1, %zero
  %m0 = mul %s, %one
  %m1 = mul %one, %x
  %d = div %x, %one
  %r = exp %a1
  return %r, %s, %m0, %m1, %d, %a0
}

// A dense literal whose elements are all 1 counts as a splat.
// CHECK-LABEL: func @dense_splat
// CHECK-NOT: = mul
// CHECK: return %x
func @dense_splat(%x: i32[3]) -> (r: i32[3]) {
  %one = constant {value = dense<[1, 1, 1]>} : i32[3]
  %m = mul %x, %one
  return %m
}

// x*0 stays for floats (NaN*0 and inf*0 are NaN, -1*0 is -0), 0-x and 1/x
// are not identities, and a non-splat literal is not 1.
// CHECK-LABEL: func @not_identities
// CHECK: %m = mul %x, %zero : f32[3]
// CHECK: %s = sub %zero, %x : f32[3]
// CHECK: %d = div %one, %x : f32[3]
// CHECK: %p = mul %x, %mixed : f32[3]
// CHECK: %q = add %x, %almost : f32[3]
// CHECK: return %m, %s, %d, %p, %q
func @not_identities(%x: f32[3]) -> (a: f32[3], b: f32[3], c: f32[3], d: f32[3], e: f32[3]) {
  %zero = constant {value = 0.0} : f32[3]
  %one = constant {value = 1.0} : f32[3]
  %mixed = constant {value = dense<[1.0, 1.0, 2.0]>} : f32[3]
  %almost = constant {value = dense<[0.0, 0.0, 1.0e-30]>} : f32[3]
  %m = mul %x, %zero
  %s = sub %zero, %x
  %d = div %one, %x
  %p = mul %x, %mixed
  %q = add %x, %almost
  return %m, %s, %d, %p, %q
}

// Integer x*0 is 0: the product reads the zero constant.
// CHECK-LABEL: func @integer_times_zero
// CHECK: %zero = constant {value = 0} : i64[N]
// CHECK-NOT: = mul
// CHECK: return %zero, %zero
func @integer_times_zero(%x: i64[N]) -> (a: i64[N], b: i64[N]) {
  %zero = constant {value = 0} : i64[N]
  %a = mul %x, %zero
  %b = mul %zero, %x
  return %a, %b
}

// neg(neg(x)) and not(not(x)) are x, through any even chain.
// CHECK-LABEL: func @involutions
// CHECK-NEXT: %n0 = neg %x : f32[N]
// CHECK-NEXT: %n2 = neg %x : f32[N]
// CHECK-NEXT: %b0 = not %p : i1[N]
// CHECK-NEXT: return %x, %n2, %p
func @involutions(%x: f32[N], %p: i1[N]) -> (a: f32[N], b: f32[N], c: i1[N]) {
  %n0 = neg %x
  %n1 = neg %n0
  %n2 = neg %n1
  %n3 = neg %n2
  %b0 = not %p
  %b1 = not %b0
  return %n3, %n2, %b1
}

// A splat-constant condition picks one side of a select.
// CHECK-LABEL: func @select_constant_condition
// CHECK-NOT: = select
// CHECK: return %a, %b
func @select_constant_condition(%a: f32[N], %b: f32[N]) -> (r: f32[N], s: f32[N]) {
  %t = constant {value = 1} : i1[N]
  %f = constant {value = 0} : i1[N]
  %r = select %t, %a, %b
  %s = select %f, %a, %b
  return %r, %s
}

// A select on a non-constant condition stays.
// CHECK-LABEL: func @select_variable_condition
// CHECK: %r = select %c, %a, %b : f32[N]
func @select_variable_condition(%c: i1[N], %a: f32[N], %b: f32[N]) -> (r: f32[N]) {
  %r = select %c, %a, %b
  return %r
}
