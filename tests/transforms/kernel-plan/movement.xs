// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// Slice, concat and pad are element-wise over their results; dims are
// expressions (N - 1, M + N - 1) and temporaries share slots by liveness.
// CHECK-LABEL: kernel @k0_slice(%x: f32[N, 64]) -> (%s: f32[N - 1, 64]) bytes 512*N - 256 {
// CHECK-NEXT:   %s = slice %x {limit = [N, 64], start = [1, 0]} : f32[N - 1, 64]
// CHECK-NEXT:   variant 0 when (none) grid (N + 2)/4:
// CHECK-NEXT:     group 0 dominant %s: elementwise rows N - 1 cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 2)/4 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_concat(%s: f32[N - 1, 64], %z: f32[M, 64]) -> (%c: f32[M + N - 1, 64]) bytes 512*M + 512*N - 512 {
// CHECK-NEXT:   %c = concat %s, %z {dim = 0} : f32[M + N - 1, 64]
// CHECK-NEXT:   variant 0 when (none) grid (M + N + 2)/4:
// CHECK-NEXT:     group 0 dominant %c: elementwise rows M + N - 1 cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((M + N + 2)/4 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k2_pad(%c: f32[M + N - 1, 64]) -> (%y: f32[M + N - 1, 66]) bytes 520*M + 520*N - 520 {
// CHECK-NEXT:   %y = pad %c {high = [0, 1], low = [0, 1], value = 0.0} : f32[M + N - 1, 66]
// CHECK-NEXT:   variant 0 when (none) grid (M + N + 2)/4:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows M + N - 1 cols 66 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((M + N + 2)/4 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @slice_concat_pad {
// CHECK-NEXT:   symbols: [N, M]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[N, 64] input 0
// CHECK-NEXT:     #1 %z: f32[M, 64] input 1
// CHECK-NEXT:     #2 %s: f32[N - 1, 64] temporary slot 0
// CHECK-NEXT:     #3 %c: f32[M + N - 1, 64] temporary slot 1
// CHECK-NEXT:     #4 %y: f32[M + N - 1, 66] output 0
// CHECK-NEXT:   slots: 2
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_slice(#0, #2) ops [%s = slice] bytes 512*N - 256
// CHECK-NEXT:       k0_slice.v0 when (none) grid (N + 2)/4 blocks/task ((N + 2)/4 + 7)/8
// CHECK-NEXT:     1: launch k1_concat(#2, #1, #3) ops [%c = concat] bytes 512*M + 512*N - 512
// CHECK-NEXT:       k1_concat.v0 when (none) grid (M + N + 2)/4 blocks/task ((M + N + 2)/4 + 7)/8
// CHECK-NEXT:     2: launch k2_pad(#3, #4) ops [%y = pad] bytes 520*M + 520*N - 520
// CHECK-NEXT:       k2_pad.v0 when (none) grid (M + N + 2)/4 blocks/task ((M + N + 2)/4 + 7)/8
// CHECK-NEXT:   outputs: [#4]
// CHECK-NEXT: }
func @slice_concat_pad(%x: f32[N, 64], %z: f32[M, 64]) -> (y: f32[N + M - 1, 66]) {
  %s = slice %x {start = [1, 0], limit = [N, 64]}
  %c = concat %s, %z {dim = 0}
  %y = pad %c {low = [0, 1], high = [0, 1], value = 0.0}
  return %y
}
