// RUN: %xstitch-opt %s --passes=shape-inference,sink-reshapes,dce | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=group_silu --dim B=2 --dim H=3 --dim W=5 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: FAIL
// PASS: check y: pass

// A row's mean kept as f32[R, 1] (ONNX's ReduceMean with keepdims=1): the
// reshape moves below the element-wise ops on the statistic and folds into
// the broadcast back over the row.
// CHECK-LABEL: func @keepdims
// CHECK-NOT: reshape
// CHECK: %s = reduce_sum %x {dims = [1]} : f32[R]
// CHECK: %[[EPS:[0-9]+]] = constant {value = 1.0e-05} : f32[R]
// CHECK-NEXT: %[[ADD:[0-9]+]] = add %s, %[[EPS]] : f32[R]
// CHECK-NEXT: %[[ROOT:[0-9]+]] = sqrt %[[ADD]] : f32[R]
// CHECK-NEXT: %[[BACK:[0-9]+]] = broadcast %[[ROOT]] {dims = [0]} : f32[R, D]
// CHECK-NEXT: %y = div %x, %[[BACK]] : f32[R, D]
func @keepdims(%x: f32[R, D]) -> (y: f32[R, D]) {
  %s = reduce_sum %x {dims = [1]}
  %k = reshape %s : f32[R, 1]
  %eps = constant {value = 1.0e-05} : f32[R, 1]
  %a = add %k, %eps
  %r = sqrt %a
  %b = broadcast %r {dims = [0, 1]} : f32[R, D]
  %y = div %x, %b
  return %y
}

// Unit dims in front and between (Unsqueeze), on two operands of one shape.
// The final reshape drops a unit dim of a value that has one: it stays.
// CHECK-LABEL: func @unsqueezed
// CHECK: %[[SUM:[0-9]+]] = add %a, %b : f32[B, S]
// CHECK-NEXT: %[[BACK:[0-9]+]] = broadcast %[[SUM]] {dims = [1, 3]} : f32[1, B, H, S]
// CHECK-NEXT: %y = reshape %[[BACK]] : f32[B, H, S]
func @unsqueezed(%a: f32[B, S], %b: f32[B, S]) -> (y: f32[B, H, S]) {
  %ra = reshape %a : f32[1, B, 1, S]
  %rb = reshape %b : f32[1, B, 1, S]
  %s = add %ra, %rb
  %y0 = broadcast %s {dims = [0, 1, 2, 3]} : f32[1, B, H, S]
  %y = reshape %y0 : f32[B, H, S]
  return %y
}

// What stays: a reshape beside an operand of the op's own shape that is no
// reshape, a reshape that is a result, and a reshape of a parameter that
// does more than add or drop dims of size 1 (its operand has one of its
// own: a view read in place). Broadcasts of a row ([R, 1]) and of a column
// ([1, R]) each read their vector directly.
// CHECK-LABEL: func @stays
// CHECK: %ka = reshape %a : f32[R, 1]
// CHECK-NEXT: %p = add %ka, %c
// CHECK-NEXT: %[[ROWS:[0-9]+]] = broadcast %a {dims = [0]} : f32[R, R]
// CHECK-NEXT: %[[COLS:[0-9]+]] = broadcast %b {dims = [1]} : f32[R, R]
// CHECK-NEXT: %q = add %[[ROWS]], %[[COLS]]
// CHECK-NEXT: %u = reshape %one : f32[R, 1, 1]
// CHECK: return %p, %q, %ka, %v
func @stays(%a: f32[R], %b: f32[R], %c: f32[R, 1], %one: f32[R, 1]) -> (p: f32[R, 1], q: f32[R, R], k: f32[R, 1], v: f32[R, 1, 1]) {
  %ka = reshape %a : f32[R, 1]
  %p = add %ka, %c
  %kb = reshape %b : f32[1, R]
  %ka2 = broadcast %ka {dims = [0, 1]} : f32[R, R]
  %kb2 = broadcast %kb {dims = [0, 1]} : f32[R, R]
  %q = add %ka2, %kb2
  %u = reshape %one : f32[R, 1, 1]
  %v = neg %u
  return %p, %q, %ka, %v
}

// A statistic unsqueezed for its broadcast and squeezed again for a result
// (x.mean(1, keepdim=True), then .squeeze(1)) is the statistic; a reshape of
// a reshape to another shape is one reshape.
// CHECK-LABEL: func @squeezed_back
// CHECK-NOT: reshape %m
// CHECK: %m = reduce_sum %x {dims = [1]} : f32[B, C]
// CHECK: %[[FLAT:[0-9]+]] = reshape %m : f32[B*C]
// CHECK-NEXT: return %m, %[[FLAT]]
func @squeezed_back(%x: f32[B, L, C]) -> (m: f32[B, C], flat: f32[B*C]) {
  %m = reduce_sum %x {dims = [1]}
  %k = reshape %m : f32[B, 1, C]
  %back = reshape %k : f32[B, C]
  %flat = reshape %k : f32[B*C]
  return %back, %flat
}

// GroupNorm's SiLU as PyTorch exports it: the normalized groups reshaped
// back to the input's shape, then sigmoid and a product with itself. Both
// run in the groups' shape; one reshape is left, at the result.
// CHECK-LABEL: func @group_silu
// CHECK: %n = mul %c, %rb : f32[B, 4, 8*H*W]
// CHECK-NEXT: %[[SIG:[0-9]+]] = sigmoid %n : f32[B, 4, 8*H*W]
// CHECK-NEXT: %[[SILU:[0-9]+]] = mul %n, %[[SIG]] : f32[B, 4, 8*H*W]
// CHECK-NEXT: %[[Y:[0-9]+]] = reshape %[[SILU]] : f32[B, 32, H, W]
// CHECK-NEXT: return %[[Y]]
func @group_silu(%x: f32[B, 32, H, W]) -> (y: f32[B, 32, H, W]) {
  %g = reshape %x : f32[B, 4, 8*H*W]
  %m = reduce_max %g {dims = [2]}
  %mb = broadcast %m {dims = [0, 1]} : f32[B, 4, 8*H*W]
  %c = sub %g, %mb
  %r = reduce_sum %c {dims = [2]}
  %rb = broadcast %r {dims = [0, 1]} : f32[B, 4, 8*H*W]
  %n = mul %c, %rb
  %back = reshape %n : f32[B, 32, H, W]
  %s = sigmoid %back
  %y = mul %back, %s
  return %y
}

// A dense literal of equal elements is laid out in the op's shape: the
// reshape stays.
// CHECK-LABEL: func @dense_operand
// CHECK: %r = reshape %e : f32[3, 2]
// CHECK: %y = mul %r, %c : f32[3, 2]
func @dense_operand(%x: f32[2, 3]) -> (y: f32[3, 2]) {
  %e = exp %x
  %r = reshape %e : f32[3, 2]
  %c = constant {value = dense<[[2.0, 2.0], [2.0, 2.0], [2.0, 2.0]]>} : f32[3, 2]
  %y = mul %r, %c
  return %y
}
