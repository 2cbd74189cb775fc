// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// Broadcasts are element-wise kernels over their result: the bias of H
// elements is read once per row, the output written once.
// CHECK-LABEL: kernel @k0_broadcast(%x: f32[S]) -> (%xb: f32[B, S, H]) bytes 4*B*H*S + 4*S {
// CHECK-NEXT:   %xb = broadcast %x {dims = [1]} : f32[B, S, H]
// CHECK-NEXT:   variant 0 when H <= 64 grid (B*S + 3)/4:
// CHECK-NEXT:     group 0 dominant %xb: elementwise rows B*S cols H rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B*S + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %xb: elementwise rows B*S cols H rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S*((H + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid B*S:
// CHECK-NEXT:     group 0 dominant %xb: elementwise rows B*S cols H rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_broadcast(%bias: f32[H]) -> (%bb: f32[B, S, H]) bytes 4*B*H*S + 4*H {
// CHECK-NEXT:   %bb = broadcast %bias {dims = [2]} : f32[B, S, H]
// CHECK-NEXT:   variant 0 when H <= 64 grid (B*S + 3)/4:
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows B*S cols H rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B*S + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows B*S cols H rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S*((H + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid B*S:
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows B*S cols H rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k2_add(%xb: f32[B, S, H], %bb: f32[B, S, H]) -> (%y: f32[B, S, H]) bytes 12*B*H*S {
// CHECK-NEXT:   %y = add %xb, %bb : f32[B, S, H]
// CHECK-NEXT:   variant 0 when H <= 64 grid (B*S + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*S cols H rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B*S + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*S cols H rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S*((H + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid B*S:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*S cols H rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @bcast {
// CHECK-NEXT:   symbols: [S, H, B]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[S] input 0
// CHECK-NEXT:     #1 %bias: f32[H] input 1
// CHECK-NEXT:     #2 %like: f32[B, S, H] input 2
// CHECK-NEXT:     #3 %xb: f32[B, S, H] temporary slot 0
// CHECK-NEXT:     #4 %bb: f32[B, S, H] temporary slot 1
// CHECK-NEXT:     #5 %y: f32[B, S, H] output 0
// CHECK-NEXT:   slots: 2
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_broadcast(#0, #3) ops [%xb = broadcast] bytes 4*B*H*S + 4*S
// CHECK-NEXT:       k0_broadcast.v0 when H <= 64 grid (B*S + 3)/4 blocks/task ((B*S + 3)/4 + 7)/8
// CHECK-NEXT:       k0_broadcast.v1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384) blocks/task (B*S*((H + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_broadcast.v2 when (none) grid B*S blocks/task (B*S + 7)/8
// CHECK-NEXT:     1: launch k1_broadcast(#1, #4) ops [%bb = broadcast] bytes 4*B*H*S + 4*H
// CHECK-NEXT:       k1_broadcast.v0 when H <= 64 grid (B*S + 3)/4 blocks/task ((B*S + 3)/4 + 7)/8
// CHECK-NEXT:       k1_broadcast.v1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384) blocks/task (B*S*((H + 16383)/16384) + 7)/8
// CHECK-NEXT:       k1_broadcast.v2 when (none) grid B*S blocks/task (B*S + 7)/8
// CHECK-NEXT:     2: launch k2_add(#3, #4, #5) ops [%y = add] bytes 12*B*H*S
// CHECK-NEXT:       k2_add.v0 when H <= 64 grid (B*S + 3)/4 blocks/task ((B*S + 3)/4 + 7)/8
// CHECK-NEXT:       k2_add.v1 when B*S < 4 and H > 16384 grid B*S*((H + 16383)/16384) blocks/task (B*S*((H + 16383)/16384) + 7)/8
// CHECK-NEXT:       k2_add.v2 when (none) grid B*S blocks/task (B*S + 7)/8
// CHECK-NEXT:   outputs: [#5]
// CHECK-NEXT: }
func @bcast(%x: f32[S], %bias: f32[H], %like: f32[B, S, H]) -> (y: f32[B, S, H]) {
  %xb = broadcast %x {dims = [1]} : f32[B, S, H]
  %bb = broadcast %bias {dims = [2]} : f32[B, S, H]
  %y = add %xb, %bb
  return %y
}

// A constant row length packs rows into blocks of about
// minElementsPerBlock (16384) elements: 16384/768 -> 32 rows.
// CHECK-LABEL: kernel @k0_broadcast(%bias: f32[768]) -> (%y: f32[4096, 768]) bytes 12585984 {
// CHECK-NEXT:   %y = broadcast %bias {dims = [1]} : f32[4096, 768]
// CHECK-NEXT:   variant 0 when (none) grid 4096:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 4096 cols 768 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: 512 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @bias_rows {
// CHECK-NEXT:   symbols: []
// CHECK-NEXT:   constraints: R == 4096
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %bias: f32[768] input 0
// CHECK-NEXT:     #1 %y: f32[4096, 768] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_broadcast(#0, #1) ops [%y = broadcast] bytes 12585984
// CHECK-NEXT:       k0_broadcast.v0 when (none) grid 4096 blocks/task 512
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @bias_rows(%bias: f32[768]) -> (y: f32[R, 768]) where R == 4096 {
  %y = broadcast %bias {dims = [1]} : f32[R, 768]
  return %y
}
