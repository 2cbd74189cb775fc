// RUN: %xstitch-opt %s --passes=shape-inference,constant-fold | FileCheck %s

// An op with a non-constant operand stays.
// CHECK-LABEL: func @not_all_constant
// CHECK: %r = add %x, %c : f32[N]
// CHECK: return %r
func @not_all_constant(%x: f32[N]) -> (r: f32[N]) {
  %c = constant {value = 1.0} : f32[N]
  %r = add %x, %c
  return %r
}

// A non-splat result over 4096 elements would bloat the IR: it stays.
// CHECK-LABEL: func @too_large
// CHECK: %b = broadcast %a {dims = [1]} : f32[4097, 2]
// CHECK: return %b
func @too_large() -> (r: f32[4097, 2]) {
  %a = constant {value = dense<[1.0, 2.0]>} : f32[2]
  %b = broadcast %a {dims = [1]} : f32[4097, 2]
  return %b
}

// An integer division by zero is left for run time to report.
// CHECK-LABEL: func @division_by_zero
// CHECK: %q = div %a, %z : i32[2]
// CHECK: return %q
func @division_by_zero() -> (r: i32[2]) {
  %a = constant {value = dense<[7, 8]>} : i32[2]
  %z = constant {value = dense<[1, 0]>} : i32[2]
  %q = div %a, %z
  return %q
}

// Sources are not folded into literals.
// CHECK-LABEL: func @sources
// CHECK-NEXT: %i = iota {dim = 0} : i32[4]
// CHECK-NEXT: return %i
func @sources() -> (r: i32[4]) {
  %i = iota {dim = 0} : i32[4]
  return %i
}
