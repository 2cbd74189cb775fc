// RUN: %xstitch-opt %s --passes=shape-inference,algebraic-simplify | FileCheck %s

// No-op reshape, broadcast, slice, transpose and cast forward their operand.
// CHECK-LABEL: func @no_ops
// CHECK-NOT: = reshape
// CHECK-NOT: = broadcast
// CHECK-NOT: = slice
// CHECK-NOT: = transpose
// CHECK-NOT: = cast
// CHECK: return %x, %x, %x, %x, %x
func @no_ops(%x: f32[N, 4]) -> (a: f32[N, 4], b: f32[N, 4], c: f32[N, 4], d: f32[N, 4], e: f32[N, 4]) {
  %r = reshape %x : f32[N, 4]
  %b = broadcast %x {dims = [0, 1]} : f32[N, 4]
  %s = slice %x {start = [0, 0], limit = [N, 4]}
  %t = transpose %x {perm = [0, 1]}
  %c = cast %x {to = f32}
  return %r, %b, %s, %t, %c
}

// The same ops that change something stay.
// CHECK-LABEL: func @real_ops
// CHECK-NEXT: %r = reshape %x : f32[4, N]
// CHECK-NEXT: %b = broadcast %x {dims = [1, 2]} : f32[2, N, 4]
// CHECK-NEXT: %s = slice %x {limit = [N, 4], start = [0, 1]} : f32[N, 3]
// CHECK-NEXT: %s2 = slice %x {limit = [N, 4], start = [0, 0], step = [1, 2]} : f32[N, 2]
// CHECK-NEXT: %t = transpose %x {perm = [1, 0]} : f32[4, N]
// CHECK-NEXT: %c = cast %x {to = f16} : f16[N, 4]
func @real_ops(%x: f32[N, 4]) -> (a: f32[4, N], b: f32[2, N, 4], c: f32[N, 3], d: f32[N, 2], e: f32[4, N], f: f16[N, 4]) {
  %r = reshape %x : f32[4, N]
  %b = broadcast %x {dims = [1, 2]} : f32[2, N, 4]
  %s = slice %x {start = [0, 1], limit = [N, 4]}
  %s2 = slice %x {start = [0, 0], limit = [N, 4], step = [1, 2]}
  %t = transpose %x {perm = [1, 0]}
  %c = cast %x {to = f16}
  return %r, %b, %s, %s2, %t, %c
}

// A size-1 dim broadcast to the same size-1 dim is a no-op too.
// CHECK-LABEL: func @broadcast_unit
// CHECK-NOT: = broadcast
// CHECK: return %x
func @broadcast_unit(%x: f32[1, 4]) -> (a: f32[1, 4]) {
  %b = broadcast %x {dims = [0, 1]} : f32[1, 4]
  return %b
}

// transpose(transpose(x)) becomes one transpose with the composed
// permutation, or x itself when they cancel.
// CHECK-LABEL: func @transposes
// CHECK: %[[T:[0-9a-z_.]+]] = transpose %x {perm = [2, 0, 1]} : f32[C, A, B]
// CHECK-NOT: transpose %t0
// CHECK: return %[[T]], %x
func @transposes(%x: f32[A, B, C]) -> (r: f32[C, A, B], s: f32[A, B, C]) {
  %t0 = transpose %x {perm = [1, 2, 0]}
  %t1 = transpose %t0 {perm = [1, 2, 0]}
  %u0 = transpose %x {perm = [2, 0, 1]}
  %u1 = transpose %u0 {perm = [1, 2, 0]}
  return %t1, %u1
}

// Reductions over dims of size 1 are reshapes (the count PyTorch's unbiased
// std multiplies out of a dim: reduce_prod of one dim_value); those over a
// dim of another size stay.
// CHECK-LABEL: func @unit_reductions
// CHECK-NEXT: %[[P:[0-9]+]] = reshape %n : i64[]
// CHECK-NEXT: %s = reduce_sum %x {dims = [1, 2]} : f32[N]
// CHECK-NEXT: %[[M:[0-9]+]] = reshape %x : f32[N, 4]
// CHECK-NEXT: %k = reduce_min %x {dims = [2]} : f32[N, 1]
// CHECK-NEXT: return %[[P]], %s, %[[M]], %k
func @unit_reductions(%n: i64[1], %x: f32[N, 1, 4]) -> (p: i64[], s: f32[N], m: f32[N, 4], k: f32[N, 1]) {
  %p = reduce_prod %n {dims = [0]}
  %s = reduce_sum %x {dims = [1, 2]}
  %m = reduce_max %x {dims = [1]}
  %k = reduce_min %x {dims = [2]}
  return %p, %s, %m, %k
}
