// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s

// AStitch's own examples.

// power -> broadcast -> add: the expensive pow over [R] feeds a broadcast,
// so it is a dominant computed once per row (not once per element) and kept
// in a block buffer that the add's group reads in the next stage (Regional).
func @power_broadcast_add(%a: f32[R], %b: f32[R], %x: f32[R, 1024]) -> (y) {
  %p = pow %a, %b
  %pb = broadcast %p {dims = [0]} : f32[R, 1024]
  %y = add %x, %pb
  return %y
}

// Figure 7 of the paper, in small: a row reduction whose consumers read
// only their own rows (Regional), and a column reduction whose result every
// row needs (Global: a grid barrier, then the last group).
func @figure7(%x: f32[R, 256]) -> (y) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, 256]
  %d = sub %x, %mb
  %c = reduce_sum %d {dims = [0]}
  %cb = broadcast %c {dims = [1]} : f32[R, 256]
  %y = mul %d, %cb
  return %y
}

// Independent: two outputs that share nothing run in the same stage.
func @independent(%x: f32[R, 64], %z: f32[R, 64]) -> (a, b) {
  %a = exp %x
  %b = neg %z
  return %a, %b
}

// The plans, one kernel per function:
// CHECK-LABEL: kernel @k0_add(%a: f32[R], %b: f32[R], %x: f32[R, 1024]) -> (%y: f32[R, 1024]) bytes 8200*R {
// CHECK-NEXT:   %p = pow %a, %b : f32[R]
// CHECK-NEXT:   %pb = broadcast %p {dims = [0]} : f32[R, 1024]
// CHECK-NEXT:   %y = add %x, %pb : f32[R, 1024]
// CHECK-NEXT:   variant 0 when (none) grid R:
// CHECK-NEXT:     group 0 dominant %p: elementwise rows R cols 1 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y ops [%pb, %y]: elementwise rows R cols 1024 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT:     buffers: %p block 1
// CHECK-NEXT:     edges: %p 0->1 regional
// CHECK-NEXT:     estimated bytes 8200*R
// CHECK-NEXT:     vertical packing: (R + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK: 0: launch k0_add(#0, #1, #2, #3) ops [%p = pow, %pb = broadcast, %y = add] bytes 8200*R
// CHECK: k0_add.v0 when (none) grid R
// CHECK-LABEL: kernel @k0_mul(%x: f32[R, 256]) -> (%y: f32[R, 256]) bytes 2048*R {
// CHECK-NEXT:   %m = reduce_max %x {dims = [1]} : f32[R]
// CHECK-NEXT:   %mb = broadcast %m {dims = [0]} : f32[R, 256]
// CHECK-NEXT:   %d = sub %x, %mb : f32[R, 256]
// CHECK-NEXT:   %c = reduce_sum %d {dims = [0]} : f32[256]
// CHECK-NEXT:   %cb = broadcast %c {dims = [1]} : f32[R, 256]
// CHECK-NEXT:   %y = mul %d, %cb : f32[R, 256]
// CHECK-NEXT:   scratch [%m, %c]
// CHECK-NEXT:   variant 0 when (none) grid (R + 63)/64:
// CHECK-NEXT:     group 0 dominant %m: row-reduce rows R cols 256 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %c ops [%mb, %d, %c]: column-reduce rows R cols 256 cols/block 64 lanes 8 vector 8 blocks 4
// CHECK-NEXT:     group 2 dominant %y ops [%mb, %d, %cb, %y]: elementwise rows R cols 256 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     phase 2: stage 0: groups [2]
// CHECK-NEXT:     buffers: %c block accumulators 64, %m global R, %c global 256
// CHECK-NEXT:     edges: %m 0->1 global, %m 0->2 global, %c 1->2 global
// CHECK-NEXT:     estimated bytes 4108*R + 2048
// CHECK-NEXT:     vertical packing: ((R + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK: 0: launch k0_mul(#0, #1, #2, #3) ops [%m = reduce_max, %mb = broadcast, %d = sub, %c = reduce_sum, %cb = broadcast, %y = mul] bytes 2048*R
// CHECK: k0_mul.v0 when (none) grid (R + 63)/64 phases 3
// CHECK-LABEL: kernel @k0_neg(%x: f32[R, 64], %z: f32[R, 64]) -> (%a: f32[R, 64], %b: f32[R, 64]) bytes 1024*R {
// CHECK-NEXT:   %a = exp %x : f32[R, 64]
// CHECK-NEXT:   %b = neg %z : f32[R, 64]
// CHECK-NEXT:   variant 0 when (none) grid (R + 3)/4:
// CHECK-NEXT:     group 0 dominant %a: elementwise rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %b: elementwise rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0, 1]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 1024*R
// CHECK-NEXT:     vertical packing: ((R + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK: 0: launch k0_neg(#0, #1, #2, #3) ops [%a = exp, %b = neg] bytes 1024*R
// CHECK: k0_neg.v0 when (none) grid (R + 3)/4
