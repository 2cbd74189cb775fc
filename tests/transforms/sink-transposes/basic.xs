// RUN: %xstitch-opt %s --passes=shape-inference,sink-transposes,algebraic-simplify,dce | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim H=3 --dim W=5 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=dense_operand --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=reordered --dim A=3 --dim B=4 --dim C=5 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: FAIL
// PASS: check y: pass

// LayerNorm over the channels of [B, C, H, W] as PyTorch exports it
// (permute to channels last, normalize over the last dim, permute back):
// the statistics reduce over C in place, the element-wise ops run in the
// input's order, and the two permutes meet and cancel.
// CHECK-LABEL: func @channels_first
// CHECK-NOT: transpose
// CHECK: %[[SUM:[0-9]+]] = reduce_sum %x {dims = [1]} : f32[B, H, W]
// CHECK: %[[INV:[a-z0-9]+]] = constant {value = 0.25} : f32[B, H, W]
// CHECK: %[[MEAN:[a-z0-9]+]] = mul %[[SUM]], %[[INV]] : f32[B, H, W]
// CHECK: %[[BACK:[0-9]+]] = broadcast %[[MEAN]] {dims = [0, 2, 3]} : f32[B, 4, H, W]
// CHECK: %[[CENTRED:[0-9]+]] = sub %x, %[[BACK]] : f32[B, 4, H, W]
// CHECK: %[[SQ:[0-9]+]] = mul %[[CENTRED]], %[[CENTRED]] : f32[B, 4, H, W]
// CHECK: reduce_sum %[[SQ]] {dims = [1]} : f32[B, H, W]
// CHECK: %[[RSTD:[0-9]+]] = broadcast %{{[a-z0-9]+}} {dims = [0, 2, 3]} : f32[B, 4, H, W]
// CHECK: %[[Y:[0-9]+]] = mul %[[CENTRED]], %[[RSTD]] : f32[B, 4, H, W]
// CHECK: return %[[Y]]
func @channels_first(%x: f32[B, 4, H, W]) -> (y: f32[B, 4, H, W]) {
  %t = transpose %x {perm = [0, 2, 3, 1]}
  %s = reduce_sum %t {dims = [3]}
  %inv = constant {value = 0.25} : f32[B, H, W]
  %mean = mul %s, %inv
  %mb = broadcast %mean {dims = [0, 1, 2]} : f32[B, H, W, 4]
  %c = sub %t, %mb
  %sq = mul %c, %c
  %ss = reduce_sum %sq {dims = [3]}
  %var = mul %ss, %inv
  %eps = constant {value = 1.0e-05} : f32[B, H, W]
  %ve = add %var, %eps
  %r = rsqrt %ve
  %rb = broadcast %r {dims = [0, 1, 2]} : f32[B, H, W, 4]
  %n = mul %c, %rb
  %y = transpose %n {perm = [0, 3, 1, 2]}
  return %y
}

// A reduction whose kept dims change order keeps a transpose of its
// (smaller) result; the element-wise op and its splat run before it.
// CHECK-LABEL: func @reordered
// CHECK: %[[E:[0-9]+]] = exp %x : f32[A, B, C]
// CHECK: %[[TWO:[0-9]+]] = constant {value = 2.0} : f32[A, B, C]
// CHECK: %[[P:[0-9]+]] = mul %[[E]], %[[TWO]] : f32[A, B, C]
// CHECK: %[[M:[0-9]+]] = reduce_max %[[P]] {dims = [0]} : f32[B, C]
// CHECK: %[[Y:[0-9]+]] = transpose %[[M]] {perm = [1, 0]} : f32[C, B]
// CHECK: return %[[Y]]
func @reordered(%x: f32[A, B, C]) -> (y: f32[C, B]) {
  %t = transpose %x {perm = [2, 0, 1]}
  %e = exp %t
  %two = constant {value = 2.0} : f32[C, A, B]
  %p = mul %e, %two
  %y = reduce_max %p {dims = [1]}
  return %y
}

// What stays: reduced dims that are not adjacent in the operand, a
// broadcast whose dims would come out of order, an operand of the op's own
// layout, and transposes by two perms.
// CHECK-LABEL: func @stays
// CHECK: %t = transpose %x {perm = [0, 2, 1, 3]} : f32[A, C, B, D]
// CHECK: %r = reduce_sum %t {dims = [2, 3]} : f32[A, C]
// CHECK: %u = transpose %z {perm = [1, 0, 2]} : f32[B, A, C]
// CHECK: %m = broadcast %v {dims = [0, 1]} : f32[B, A, C]
// CHECK: %s = sub %u, %m : f32[B, A, C]
// CHECK: %q = add %u, %w : f32[B, A, C]
// CHECK: %o = transpose %w {perm = [2, 1, 0]} : f32[C, A, B]
// CHECK: %k = transpose %z {perm = [2, 0, 1]} : f32[C, A, B]
// CHECK: %g = add %o, %k : f32[C, A, B]
func @stays(%x: f32[A, B, C, D], %z: f32[A, B, C], %v: f32[B, A], %w: f32[B, A, C]) -> (r: f32[A, C], s: f32[B, A, C], q: f32[B, A, C], g: f32[C, A, B]) {
  %t = transpose %x {perm = [0, 2, 1, 3]}
  %r = reduce_sum %t {dims = [2, 3]}
  %u = transpose %z {perm = [1, 0, 2]}
  %m = broadcast %v {dims = [0, 1]} : f32[B, A, C]
  %s = sub %u, %m
  %q = add %u, %w
  %o = transpose %w {perm = [2, 1, 0]}
  %k = transpose %z {perm = [2, 0, 1]}
  %g = add %o, %k
  return %r, %s, %q, %g
}

// A dense literal of equal elements is laid out in the op's shape: the
// transpose stays (a scalar literal would be made again untransposed).
// CHECK-LABEL: func @dense_operand
// CHECK: %t = transpose %x {perm = [1, 0]} : f32[3, 2]
// CHECK: %y = add %t, %c : f32[3, 2]
func @dense_operand(%x: f32[2, 3]) -> (y: f32[3, 2]) {
  %t = transpose %x {perm = [1, 0]}
  %c = constant {value = dense<[[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]>} : f32[3, 2]
  %y = add %t, %c
  return %y
}
