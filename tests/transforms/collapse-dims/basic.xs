// RUN: %xstitch-opt %s --passes=shape-inference,collapse-dims | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim H=3 --dim W=5 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=1 --dim H=1 --dim W=1 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=repeated --dim N=2 --dim C=3 --dim H=4 --dim W=5 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=expanded --dim N=3 --dim H=4 --dim W=5 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: FAIL
// PASS: check y: pass

// LayerNorm's statistics over the channels of [B, C, H, W] (ConvNeXt): the
// reduction over C, the broadcasts back over it and the per-channel scale all
// keep H and W together, so the region runs on [B, C, H*W]; the parameter is
// read through a reshape, the splat is made in the merged shape, and the
// result goes back to its declared shape.
// CHECK-LABEL: func @channels_first
// CHECK-NEXT: %[[X:[0-9]+]] = reshape %x : f32[B, 4, H*W]
// CHECK-NEXT: %s = reduce_sum %[[X]] {dims = [1]} : f32[B, H*W]
// CHECK-NEXT: %[[INV:[0-9]+]] = constant {value = 0.25} : f32[B, H*W]
// CHECK-NEXT: %mean = mul %s, %[[INV]] : f32[B, H*W]
// CHECK-NEXT: %mb = broadcast %mean {dims = [0, 2]} : f32[B, 4, H*W]
// CHECK-NEXT: %c = sub %[[X]], %mb : f32[B, 4, H*W]
// CHECK-NEXT: %gb = broadcast %g {dims = [1]} : f32[B, 4, H*W]
// CHECK-NEXT: %y = mul %c, %gb : f32[B, 4, H*W]
// CHECK-NEXT: %[[Y:[0-9]+]] = reshape %y : f32[B, 4, H, W]
// CHECK-NEXT: return %[[Y]]
func @channels_first(%x: f32[B, 4, H, W], %g: f32[4]) -> (y: f32[B, 4, H, W]) {
  %s = reduce_sum %x {dims = [1]}
  %inv = constant {value = 0.25} : f32[B, H, W]
  %mean = mul %s, %inv
  %mb = broadcast %mean {dims = [0, 2, 3]} : f32[B, 4, H, W]
  %c = sub %x, %mb
  %gb = broadcast %g {dims = [1]} : f32[B, 4, H, W]
  %y = mul %c, %gb
  return %y
}

// Merging the last two dims makes a new last pair, which merges again:
// InstanceNorm's mean over [C, H, W] of each sample, taken away from it.
// CHECK-LABEL: func @repeated
// CHECK-NEXT: %[[X:[0-9]+]] = reshape %x : f32[N, C*H*W]
// CHECK-NEXT: %s = reduce_sum %[[X]] {dims = [1]} : f32[N]
// CHECK-NEXT: %sb = broadcast %s {dims = [0]} : f32[N, C*H*W]
// CHECK-NEXT: %y = sub %[[X]], %sb : f32[N, C*H*W]
// CHECK-NEXT: %[[Y:[0-9]+]] = reshape %y : f32[N, C, H, W]
// CHECK-NEXT: return %[[Y]]
func @repeated(%x: f32[N, C, H, W]) -> (y: f32[N, C, H, W]) {
  %s = reduce_sum %x {dims = [1, 2, 3]}
  %sb = broadcast %s {dims = [0]} : f32[N, C, H, W]
  %y = sub %x, %sb
  return %y
}

// Element-wise ops alone keep their dims: their rows are walked in order
// whatever they are.
// CHECK-LABEL: func @elementwise
// CHECK-NOT: reshape
// CHECK: return
func @elementwise(%a: f32[A, B, C], %b: f32[A, B, C]) -> (y: f32[A, B, C]) {
  %y = add %a, %b
  return %y
}

// A broadcast expanding two dims of size 1 together, and an iota along a
// dim the region keeps.
// CHECK-LABEL: func @expanded
// CHECK-NEXT: %[[S:[0-9]+]] = reshape %s : f32[N, 1]
// CHECK-NEXT: %sb = broadcast %[[S]] {dims = [0, 1]} : f32[N, H*W]
// CHECK-NEXT: %i = iota {dim = 0} : f32[N, H*W]
// CHECK-NEXT: %[[X:[0-9]+]] = reshape %x : f32[N, H*W]
// CHECK-NEXT: %p = mul %[[X]], %sb : f32[N, H*W]
// CHECK-NEXT: %y = add %p, %i : f32[N, H*W]
func @expanded(%x: f32[N, H, W], %s: f32[N, 1, 1]) -> (y: f32[N, H, W]) {
  %sb = broadcast %s {dims = [0, 1, 2]} : f32[N, H, W]
  %i = iota {dim = 0} : f32[N, H, W]
  %p = mul %x, %sb
  %y = add %p, %i
  return %y
}

// Left as they are: a reduction over one of the two dims, a broadcast along
// one of them, a parameter another op reads in its own layout.
// CHECK-LABEL: func @row_of_w
// CHECK-NOT: reshape
// CHECK: return
func @row_of_w(%x: f32[B, H, W]) -> (y: f32[B, H, W]) {
  %m = reduce_max %x {dims = [2]}
  %mb = broadcast %m {dims = [0, 1]} : f32[B, H, W]
  %y = sub %x, %mb
  return %y
}

// CHECK-LABEL: func @bias_over_w
// CHECK-NOT: reshape
// CHECK: return
func @bias_over_w(%x: f32[B, H, W], %b: f32[W]) -> (y: f32[B, H, W]) {
  %bb = broadcast %b {dims = [2]} : f32[B, H, W]
  %y = add %x, %bb
  return %y
}

// CHECK-LABEL: func @read_twice
// CHECK-NOT: reshape
// CHECK: return
func @read_twice(%x: f32[B, H, W]) -> (y: f32[B, H, W], t: f32[B, W, H]) {
  %y = exp %x
  %t = transpose %x {perm = [0, 2, 1]}
  return %y, %t
}
