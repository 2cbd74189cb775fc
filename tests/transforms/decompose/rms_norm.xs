// RUN: %xstitch-opt %s --passes=shape-inference,decompose | FileCheck %s

// x * rsqrt(mean(x^2) + eps) * w; eps defaults to 1e-6.
// CHECK-LABEL: func @with_weight
// CHECK-NEXT: %[[SQ:[0-9a-z_.]+]] = mul %x, %x : f32[T, 64]
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %[[SQ]] {dims = [1]} : f32[T]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = constant {value = 0.015625} : f32[T]
// CHECK-NEXT: %[[MS:[0-9a-z_.]+]] = mul %[[SUM]], %[[INV]] : f32[T]
// CHECK-NEXT: %[[EPS:[0-9a-z_.]+]] = constant {value = 1.0e-06} : f32[T]
// CHECK-NEXT: %[[SH:[0-9a-z_.]+]] = add %[[MS]], %[[EPS]] : f32[T]
// CHECK-NEXT: %[[RS:[0-9a-z_.]+]] = rsqrt %[[SH]] : f32[T]
// CHECK-NEXT: %[[RSB:[0-9a-z_.]+]] = broadcast %[[RS]] {dims = [0]} : f32[T, 64]
// CHECK-NEXT: %[[N:[0-9a-z_.]+]] = mul %x, %[[RSB]] : f32[T, 64]
// CHECK-NEXT: %[[W:[0-9a-z_.]+]] = broadcast %w {dims = [1]} : f32[T, 64]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %[[N]], %[[W]] : f32[T, 64]
// CHECK-NEXT: return %[[Y]]
func @with_weight(%x: f32[T, 64], %w: f32[64]) -> (y: f32[T, 64]) {
  %y = rms_norm %x, %w
  return %y
}

// No weight, axis 0 of a rank-2 input: scalar statistics broadcast with no
// mapped dims.
// CHECK-LABEL: func @no_weight_axis0
// CHECK-NEXT: %[[SQ:[0-9a-z_.]+]] = mul %x, %x : f32[2, 3]
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %[[SQ]] {dims = [0, 1]} : f32[]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = constant {value = 0.16666666666666666} : f32[]
// CHECK: %[[EPS:[0-9a-z_.]+]] = constant {value = 0.5} : f32[]
// CHECK: %[[RSB:[0-9a-z_.]+]] = broadcast %{{[0-9a-z_.]+}} {dims = []} : f32[2, 3]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %x, %[[RSB]] : f32[2, 3]
// CHECK-NEXT: return %[[Y]]
func @no_weight_axis0(%x: f32[2, 3]) -> (y: f32[2, 3]) {
  %y = rms_norm %x {axis = 0, epsilon = 0.5}
  return %y
}
