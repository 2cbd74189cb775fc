// Reductions, composites and dot.
// RUN: %xstitch-opt %s --passes=shape-inference | FileCheck %s

// CHECK-LABEL: func @reduce(%x: f32[B, S, H]) -> (s: f32[B], m: f32[B, H], a: i64[B, S]) {
func @reduce(%x: f32[B, S, H]) -> (s, m, a) {
  // CHECK-NEXT: %s = reduce_sum %x {dims = [1, 2]} : f32[B]
  %s = reduce_sum %x {dims = [1, 2]}
  // CHECK-NEXT: %m = reduce_max %x {dims = [1]} : f32[B, H]
  %m = reduce_max %x {dims = [1]}
  // CHECK-NEXT: %a = argmax %x {dim = 2} : i64[B, S]
  %a = argmax %x {dim = 2}
  return %s, %m, %a
}

// The scale and offset of layer_norm have the normalized dims of x.
// CHECK-LABEL: func @layer_norm(%x: f32[R, 768], %g: f32[768], %b: f32[768]) -> (y: f32[R, 768]) where H == 768 {
func @layer_norm(%x: f32[R, 768], %g: f32[H], %b: f32[768]) -> (y) {
  // CHECK-NEXT: %y = layer_norm %x, %g, %b {epsilon = 1.0e-05} : f32[R, 768]
  %y = layer_norm %x, %g, %b {epsilon = 1e-5}
  return %y
}

// CHECK-LABEL: func @composites(%x: f32[B, S, H], %w: f32[S, H]) -> (a: f32[B, S, H], b: f32[B, S, H], c: f32[B, S, H]) {
func @composites(%x: f32[B, S, H], %w: f32[S, H]) -> (a, b, c) {
  // CHECK-NEXT: %a = rms_norm %x, %w {axis = 1} : f32[B, S, H]
  %a = rms_norm %x, %w {axis = 1}
  // CHECK-NEXT: %b = softmax %a : f32[B, S, H]
  %b = softmax %a
  // CHECK-NEXT: %c = gelu %b {approximate = tanh} : f32[B, S, H]
  %c = gelu %b {approximate = tanh}
  return %a, %b, %c
}

// dot equates the contracted dim and the batch dims.
// CHECK-LABEL: func @dot(%a: f32[B, M, K], %b: f32[B, K, N]) -> (c: f32[B, M, N]) where B == C, K == L {
func @dot(%a: f32[B, M, K], %b: f32[C, L, N]) -> (c) {
  // CHECK-NEXT: %c = dot %a, %b : f32[B, M, N]
  %c = dot %a, %b
  return %c
}
