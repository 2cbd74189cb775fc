// RUN: %xstitch-opt %s --passes=shape-inference,decompose | FileCheck %s

// Mean and biased variance over the last dim as reduce_sum * (1/768), then
// (x - mean) * rsqrt(var + eps) * gamma + beta with explicit broadcasts.
// CHECK-LABEL: func @static_last_axis
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %x {dims = [1]} : f32[R]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = constant {value = 0.0013020833333333333} : f32[R]
// CHECK-NEXT: %[[MEAN:[0-9a-z_.]+]] = mul %[[SUM]], %[[INV]] : f32[R]
// CHECK-NEXT: %[[MEANB:[0-9a-z_.]+]] = broadcast %[[MEAN]] {dims = [0]} : f32[R, 768]
// CHECK-NEXT: %[[XC:[0-9a-z_.]+]] = sub %x, %[[MEANB]] : f32[R, 768]
// CHECK-NEXT: %[[SQ:[0-9a-z_.]+]] = mul %[[XC]], %[[XC]] : f32[R, 768]
// CHECK-NEXT: %[[SSUM:[0-9a-z_.]+]] = reduce_sum %[[SQ]] {dims = [1]} : f32[R]
// CHECK-NEXT: %[[INV2:[0-9a-z_.]+]] = constant {value = 0.0013020833333333333} : f32[R]
// CHECK-NEXT: %[[VAR:[0-9a-z_.]+]] = mul %[[SSUM]], %[[INV2]] : f32[R]
// CHECK-NEXT: %[[EPS:[0-9a-z_.]+]] = constant {value = 1.0e-05} : f32[R]
// CHECK-NEXT: %[[VE:[0-9a-z_.]+]] = add %[[VAR]], %[[EPS]] : f32[R]
// CHECK-NEXT: %[[RS:[0-9a-z_.]+]] = rsqrt %[[VE]] : f32[R]
// CHECK-NEXT: %[[RSB:[0-9a-z_.]+]] = broadcast %[[RS]] {dims = [0]} : f32[R, 768]
// CHECK-NEXT: %[[N:[0-9a-z_.]+]] = mul %[[XC]], %[[RSB]] : f32[R, 768]
// CHECK-NEXT: %[[G:[0-9a-z_.]+]] = broadcast %gamma {dims = [1]} : f32[R, 768]
// CHECK-NEXT: %[[NG:[0-9a-z_.]+]] = mul %[[N]], %[[G]] : f32[R, 768]
// CHECK-NEXT: %[[B:[0-9a-z_.]+]] = broadcast %beta {dims = [1]} : f32[R, 768]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = add %[[NG]], %[[B]] : f32[R, 768]
// CHECK-NEXT: %z = exp %[[Y]] : f32[R, 768]
// CHECK-NEXT: return %z
func @static_last_axis(%x: f32[R, 768], %gamma: f32[768], %beta: f32[768]) -> (y: f32[R, 768]) {
  %y = layer_norm %x, %gamma, %beta {epsilon = 1.0e-05}
  %z = exp %y
  return %z
}

// Without gamma and beta the normalized value is the result; axis 1 of a
// rank-3 input normalizes over dims 1 and 2 (n = 3*4 = 12).
// CHECK-LABEL: func @middle_axis_no_affine
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %x {dims = [1, 2]} : f64[B]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = constant {value = 0.08333333333333333} : f64[B]
// CHECK-NEXT: %[[MEAN:[0-9a-z_.]+]] = mul %[[SUM]], %[[INV]] : f64[B]
// CHECK-NEXT: %[[MEANB:[0-9a-z_.]+]] = broadcast %[[MEAN]] {dims = [0]} : f64[B, 3, 4]
// CHECK-NEXT: %[[XC:[0-9a-z_.]+]] = sub %x, %[[MEANB]] : f64[B, 3, 4]
// CHECK: %[[EPS:[0-9a-z_.]+]] = constant {value = 0.001} : f64[B]
// CHECK: %[[RSB:[0-9a-z_.]+]] = broadcast %{{[0-9a-z_.]+}} {dims = [0]} : f64[B, 3, 4]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %[[XC]], %[[RSB]] : f64[B, 3, 4]
// CHECK-NEXT: return %[[Y]]
func @middle_axis_no_affine(%x: f64[B, 3, 4]) -> (y: f64[B, 3, 4]) {
  %y = layer_norm %x {axis = 1, epsilon = 0.001}
  return %y
}

// gamma alone (two operands) scales without a shift.
// CHECK-LABEL: func @gamma_only
// CHECK: %[[G:[0-9a-z_.]+]] = broadcast %gamma {dims = [1]} : f32[R, 8]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %{{[0-9a-z_.]+}}, %[[G]] : f32[R, 8]
// CHECK-NEXT: return %[[Y]]
func @gamma_only(%x: f32[R, 8], %gamma: f32[8]) -> (y: f32[R, 8]) {
  %y = layer_norm %x, %gamma
  return %y
}

// A symbolic normalized size is counted at run time: the sum of a splat 1 of
// the normalized shape, inverted and broadcast to the rows.
// CHECK-LABEL: func @symbolic_size
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %x {dims = [1]} : f32[R]
// CHECK-NEXT: %[[ONES:[0-9a-z_.]+]] = constant {value = 1.0} : f32[D]
// CHECK-NEXT: %[[N:[0-9a-z_.]+]] = reduce_sum %[[ONES]] {dims = [0]} : f32[]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = reciprocal %[[N]] : f32[]
// CHECK-NEXT: %[[INVB:[0-9a-z_.]+]] = broadcast %[[INV]] {dims = []} : f32[R]
// CHECK-NEXT: %[[MEAN:[0-9a-z_.]+]] = mul %[[SUM]], %[[INVB]] : f32[R]
// CHECK-NOT: layer_norm
func @symbolic_size(%x: f32[R, D]) -> (y: f32[R, D]) {
  %y = layer_norm %x
  return %y
}

// Normalizing every dim (axis 0) leaves scalar statistics: no row broadcast
// of 1/n is needed.
// CHECK-LABEL: func @all_dims_symbolic
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %x {dims = [0, 1]} : f32[]
// CHECK-NEXT: %[[ONES:[0-9a-z_.]+]] = constant {value = 1.0} : f32[A, B]
// CHECK-NEXT: %[[N:[0-9a-z_.]+]] = reduce_sum %[[ONES]] {dims = [0, 1]} : f32[]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = reciprocal %[[N]] : f32[]
// CHECK-NEXT: %[[MEAN:[0-9a-z_.]+]] = mul %[[SUM]], %[[INV]] : f32[]
// CHECK-NEXT: %[[MEANB:[0-9a-z_.]+]] = broadcast %[[MEAN]] {dims = []} : f32[A, B]
func @all_dims_symbolic(%x: f32[A, B]) -> (y: f32[A, B]) {
  %y = layer_norm %x {axis = 0}
  return %y
}
