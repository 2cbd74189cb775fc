// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// dot is a library step reading and writing buffers; the kernels around
// it are planned as usual.
// CHECK-LABEL: kernel @k0_broadcast(%b: f32[N]) -> (%bb: f32[M, N]) bytes 4*M*N + 4*N {
// CHECK-NEXT:   %bb = broadcast %b {dims = [1]} : f32[M, N]
// CHECK-NEXT:   variant 0 when N <= 64 grid (M + 3)/4:
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows M cols N rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((M + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when M < 4 and N > 16384 grid M*((N + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows M cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (M*((N + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid M:
// CHECK-NEXT:     group 0 dominant %bb: elementwise rows M cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (M + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_add(%h: f32[M, N], %bb: f32[M, N]) -> (%y: f32[M, N]) bytes 12*M*N {
// CHECK-NEXT:   %y = add %h, %bb : f32[M, N]
// CHECK-NEXT:   variant 0 when N <= 64 grid (M + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows M cols N rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((M + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when M < 4 and N > 16384 grid M*((N + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: elementwise rows M cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (M*((N + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid M:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows M cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (M + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @mlp {
// CHECK-NEXT:   symbols: [M, K, N]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[M, K] input 0
// CHECK-NEXT:     #1 %w: f32[K, N] input 1
// CHECK-NEXT:     #2 %b: f32[N] input 2
// CHECK-NEXT:     #3 %h: f32[M, N] temporary slot 0
// CHECK-NEXT:     #4 %bb: f32[M, N] temporary slot 1
// CHECK-NEXT:     #5 %y: f32[M, N] output 0
// CHECK-NEXT:   slots: 2
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: library dot(#0, #1, #3) ops [%h = dot] bytes 4*K*M + 4*K*N + 4*M*N
// CHECK-NEXT:     1: launch k0_broadcast(#2, #4) ops [%bb = broadcast] bytes 4*M*N + 4*N
// CHECK-NEXT:       k0_broadcast.v0 when N <= 64 grid (M + 3)/4 blocks/task ((M + 3)/4 + 7)/8
// CHECK-NEXT:       k0_broadcast.v1 when M < 4 and N > 16384 grid M*((N + 16383)/16384) blocks/task (M*((N + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_broadcast.v2 when (none) grid M blocks/task (M + 7)/8
// CHECK-NEXT:     2: launch k1_add(#3, #4, #5) ops [%y = add] bytes 12*M*N
// CHECK-NEXT:       k1_add.v0 when N <= 64 grid (M + 3)/4 blocks/task ((M + 3)/4 + 7)/8
// CHECK-NEXT:       k1_add.v1 when M < 4 and N > 16384 grid M*((N + 16383)/16384) blocks/task (M*((N + 16383)/16384) + 7)/8
// CHECK-NEXT:       k1_add.v2 when (none) grid M blocks/task (M + 7)/8
// CHECK-NEXT:   outputs: [#5]
// CHECK-NEXT: }
func @mlp(%x: f32[M, K], %w: f32[K, N], %b: f32[N]) -> (y: f32[M, N]) {
  %h = dot %x, %w
  %bb = broadcast %b {dims = [1]} : f32[M, N]
  %y = add %h, %bb
  return %y
}

// A splat constant read by a library op gets a kernel and a buffer.
// CHECK-LABEL: kernel @k0_constant() -> (%w: f32[K, 4]) bytes 16*K {
// CHECK-NEXT:   %w = constant {value = 0.5} : f32[K, 4]
// CHECK-NEXT:   variant 0 when (none) grid (K + 63)/64:
// CHECK-NEXT:     group 0 dominant %w: elementwise rows K cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((K + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @dot_splat {
// CHECK-NEXT:   symbols: [M, K]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[M, K] input 0
// CHECK-NEXT:     #1 %w: f32[K, 4] temporary slot 0
// CHECK-NEXT:     #2 %y: f32[M, 4] output 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_constant(#1) ops [%w = constant] bytes 16*K
// CHECK-NEXT:       k0_constant.v0 when (none) grid (K + 63)/64 blocks/task ((K + 63)/64 + 7)/8
// CHECK-NEXT:     1: library dot(#0, #1, #2) ops [%y = dot] bytes 4*K*M + 16*K + 16*M
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT: }
func @dot_splat(%x: f32[M, K]) -> (y: f32[M, 4]) {
  %w = constant {value = 0.5} : f32[K, 4]
  %y = dot %x, %w
  return %y
}
