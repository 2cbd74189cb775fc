// RUN: %xstitch-opt %s --passes=shape-inference,decompose | FileCheck %s

// Max-subtracted along the middle axis; the per-row values broadcast back
// over the kept dims 0 and 2, and each row's exps multiply by the reciprocal
// of their sum (one division per row).
// CHECK-LABEL: func @softmax_middle
// CHECK-NEXT: %[[MAX:[0-9a-z_.]+]] = reduce_max %x {dims = [1]} : f32[B, H]
// CHECK-NEXT: %[[MAXB:[0-9a-z_.]+]] = broadcast %[[MAX]] {dims = [0, 2]} : f32[B, S, H]
// CHECK-NEXT: %[[SH:[0-9a-z_.]+]] = sub %x, %[[MAXB]] : f32[B, S, H]
// CHECK-NEXT: %[[E:[0-9a-z_.]+]] = exp %[[SH]] : f32[B, S, H]
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %[[E]] {dims = [1]} : f32[B, H]
// CHECK-NEXT: %[[INV:[0-9a-z_.]+]] = reciprocal %[[SUM]] : f32[B, H]
// CHECK-NEXT: %[[INVB:[0-9a-z_.]+]] = broadcast %[[INV]] {dims = [0, 2]} : f32[B, S, H]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %[[E]], %[[INVB]] : f32[B, S, H]
// CHECK-NEXT: return %[[Y]]
func @softmax_middle(%x: f32[B, S, H]) -> (y: f32[B, S, H]) {
  %y = softmax %x {axis = 1}
  return %y
}

// The axis defaults to the last dim.
// CHECK-LABEL: func @softmax_default_axis
// CHECK-NEXT: %[[MAX:[0-9a-z_.]+]] = reduce_max %x {dims = [1]} : f16[N]
// CHECK-NEXT: %[[MAXB:[0-9a-z_.]+]] = broadcast %[[MAX]] {dims = [0]} : f16[N, 10]
// CHECK-NOT: softmax
func @softmax_default_axis(%x: f16[N, 10]) -> (y: f16[N, 10]) {
  %y = softmax %x
  return %y
}

// (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func @log_softmax_first
// CHECK-NEXT: %[[MAX:[0-9a-z_.]+]] = reduce_max %x {dims = [0]} : f64[M]
// CHECK-NEXT: %[[MAXB:[0-9a-z_.]+]] = broadcast %[[MAX]] {dims = [1]} : f64[N, M]
// CHECK-NEXT: %[[SH:[0-9a-z_.]+]] = sub %x, %[[MAXB]] : f64[N, M]
// CHECK-NEXT: %[[E:[0-9a-z_.]+]] = exp %[[SH]] : f64[N, M]
// CHECK-NEXT: %[[SUM:[0-9a-z_.]+]] = reduce_sum %[[E]] {dims = [0]} : f64[M]
// CHECK-NEXT: %[[L:[0-9a-z_.]+]] = log %[[SUM]] : f64[M]
// CHECK-NEXT: %[[LB:[0-9a-z_.]+]] = broadcast %[[L]] {dims = [1]} : f64[N, M]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = sub %[[SH]], %[[LB]] : f64[N, M]
// CHECK-NEXT: return %[[Y]]
func @log_softmax_first(%x: f64[N, M]) -> (y: f64[N, M]) {
  %y = log_softmax %x {axis = 0}
  return %y
}
