// RUN: %xstitch-opt %s --passes=shape-inference,cse | FileCheck %s

// Constants with equal values and types merge; `2` and `2.0` fill an f32
// tensor with the same value.
// CHECK-LABEL: func @equal_constants
// CHECK-NEXT: %c0 = constant {value = 2.0} : f32[N]
// CHECK-NEXT: %m0 = mul %a, %c0 : f32[N]
// CHECK-NEXT: %m2 = mul %m0, %c0 : f32[N]
// CHECK-NEXT: %m3 = add %m2, %m0 : f32[N]
// CHECK-NEXT: return %m3
func @equal_constants(%a: f32[N]) -> (r: f32[N]) {
  %c0 = constant {value = 2.0} : f32[N]
  %c1 = constant {value = 2.0} : f32[N]
  %c2 = constant {value = 2} : f32[N]
  %m0 = mul %a, %c0
  %m1 = mul %a, %c1
  %m2 = mul %m1, %c2
  %m3 = add %m2, %m0
  return %m3
}

// 0.0 and -0.0 are different values (1/x tells them apart); so are equal
// literals of different types or shapes.
// CHECK-LABEL: func @different_constants
// CHECK-NEXT: %z = constant {value = 0.0} : f32[4]
// CHECK-NEXT: %nz = constant {value = -0.0} : f32[4]
// CHECK-NEXT: %d = constant {value = 0.0} : f64[4]
// CHECK-NEXT: %s = constant {value = 0.0} : f32[2, 2]
// CHECK-NEXT: %e = constant {value = dense<[1.0, 2.0, 3.0, 4.0]>} : f32[4]
// CHECK-NEXT: %f = constant {value = dense<[1.0, 2.0, 3.0, 5.0]>} : f32[4]
// CHECK-NEXT: return %z, %nz, %d, %s, %e, %f
func @different_constants() -> (a: f32[4], b: f32[4], c: f64[4], d: f32[2, 2], e: f32[4], f: f32[4]) {
  %z = constant {value = 0.0} : f32[4]
  %nz = constant {value = -0.0} : f32[4]
  %d = constant {value = 0.0} : f64[4]
  %s = constant {value = 0.0} : f32[2, 2]
  %e = constant {value = dense<[1.0, 2.0, 3.0, 4.0]>} : f32[4]
  %f = constant {value = dense<[1.0, 2.0, 3.0, 5.0]>} : f32[4]
  return %z, %nz, %d, %s, %e, %f
}

// Equal dense literals merge.
// CHECK-LABEL: func @dense
// CHECK-NEXT: %e = constant {value = dense<[1, 2]>} : i32[2]
// CHECK-NEXT: return %e, %e
func @dense() -> (a: i32[2], b: i32[2]) {
  %e = constant {value = dense<[1, 2]>} : i32[2]
  %f = constant {value = dense<[1, 2]>} : i32[2]
  return %e, %f
}

// Reshapes and broadcasts take their shape from the result type: equal
// operands and attributes with different result types do not merge.
// CHECK-LABEL: func @result_types
// CHECK-NEXT: %r0 = reshape %a : f32[2, 6]
// CHECK-NEXT: %r1 = reshape %a : f32[3, 4]
// CHECK-NEXT: return %r0, %r1, %r0
func @result_types(%a: f32[12]) -> (x: f32[2, 6], y: f32[3, 4], z: f32[2, 6]) {
  %r0 = reshape %a : f32[2, 6]
  %r1 = reshape %a : f32[3, 4]
  %r2 = reshape %a : f32[2, 6]
  return %r0, %r1, %r2
}
