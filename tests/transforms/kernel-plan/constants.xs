// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// A dense constant is a constant buffer holding its values.
// CHECK-LABEL: kernel @k0_broadcast(%w: f32[4]) -> (%wb: f32[N, 4]) bytes 16*N + 16 {
// CHECK-NEXT:   %wb = broadcast %w {dims = [1]} : f32[N, 4]
// CHECK-NEXT:   variant 0 when (none) grid (N + 63)/64:
// CHECK-NEXT:     group 0 dominant %wb: elementwise rows N cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_mul(%x: f32[N, 4], %wb: f32[N, 4]) -> (%y: f32[N, 4]) bytes 48*N {
// CHECK-NEXT:   %y = mul %x, %wb : f32[N, 4]
// CHECK-NEXT:   variant 0 when (none) grid (N + 63)/64:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows N cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @dense {
// CHECK-NEXT:   symbols: [N]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[N, 4] input 0
// CHECK-NEXT:     #1 %w: f32[4] constant [1.0, 2.0, 3.0, 4.0]
// CHECK-NEXT:     #2 %wb: f32[N, 4] temporary slot 0
// CHECK-NEXT:     #3 %y: f32[N, 4] output 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_broadcast(#1, #2) ops [%wb = broadcast] bytes 16*N + 16
// CHECK-NEXT:       k0_broadcast.v0 when (none) grid (N + 63)/64 blocks/task ((N + 63)/64 + 7)/8
// CHECK-NEXT:     1: launch k1_mul(#0, #2, #3) ops [%y = mul] bytes 48*N
// CHECK-NEXT:       k1_mul.v0 when (none) grid (N + 63)/64 blocks/task ((N + 63)/64 + 7)/8
// CHECK-NEXT:   outputs: [#3]
// CHECK-NEXT: }
func @dense(%x: f32[N, 4]) -> (y: f32[N, 4]) {
  %w = constant {value = dense<[1.0, 2.0, 3.0, 4.0]>} : f32[4]
  %wb = broadcast %w {dims = [1]} : f32[N, 4]
  %y = mul %x, %wb
  return %y
}

// A splat constant is cloned into each kernel that reads it; one
// returned as a result gets an element-wise kernel of its own.
// CHECK-LABEL: kernel @k0_mul(%x: f32[N]) -> (%a: f32[N]) bytes 8*N {
// CHECK-NEXT:   %half = constant {value = 0.5} : f32[N]
// CHECK-NEXT:   %a = mul %x, %half : f32[N]
// CHECK-NEXT:   variant 0 when N > 16384 grid (N + 16383)/16384:
// CHECK-NEXT:     group 0 dominant %a: elementwise rows 1 cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 16383)/16384 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 1:
// CHECK-NEXT:     group 0 dominant %a: elementwise rows 1 cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_add(%a: f32[N]) -> (%y: f32[N]) bytes 8*N {
// CHECK-NEXT:   %half = constant {value = 0.5} : f32[N]
// CHECK-NEXT:   %y = add %a, %half : f32[N]
// CHECK-NEXT:   variant 0 when N > 16384 grid (N + 16383)/16384:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 1 cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 16383)/16384 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 1:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 1 cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k2_constant() -> (%s: f32[N]) bytes 4*N {
// CHECK-NEXT:   %s = constant {value = 2.0} : f32[N]
// CHECK-NEXT:   variant 0 when N > 16384 grid (N + 16383)/16384:
// CHECK-NEXT:     group 0 dominant %s: elementwise rows 1 cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 16383)/16384 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 1:
// CHECK-NEXT:     group 0 dominant %s: elementwise rows 1 cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: host @splat {
// CHECK-NEXT:   symbols: [N]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[N] input 0
// CHECK-NEXT:     #1 %z: f32[N] input 1
// CHECK-NEXT:     #2 %a: f32[N] temporary slot 0
// CHECK-NEXT:     #3 %y: f32[N] output 0
// CHECK-NEXT:     #4 %s: f32[N] output 1
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_mul(#0, #2) ops [%a = mul] bytes 8*N
// CHECK-NEXT:       k0_mul.v0 when N > 16384 grid (N + 16383)/16384 blocks/task ((N + 16383)/16384 + 7)/8
// CHECK-NEXT:       k0_mul.v1 when (none) grid 1
// CHECK-NEXT:     1: launch k1_add(#2, #3) ops [%y = add] bytes 8*N
// CHECK-NEXT:       k1_add.v0 when N > 16384 grid (N + 16383)/16384 blocks/task ((N + 16383)/16384 + 7)/8
// CHECK-NEXT:       k1_add.v1 when (none) grid 1
// CHECK-NEXT:     2: launch k2_constant(#4) ops [%s = constant] bytes 4*N
// CHECK-NEXT:       k2_constant.v0 when N > 16384 grid (N + 16383)/16384 blocks/task ((N + 16383)/16384 + 7)/8
// CHECK-NEXT:       k2_constant.v1 when (none) grid 1
// CHECK-NEXT:   outputs: [#3, #4]
// CHECK-NEXT: }
func @splat(%x: f32[N], %z: f32[N]) -> (y: f32[N], s: f32[N]) {
  %half = constant {value = 0.5} : f32[N]
  %a = mul %x, %half
  %y = add %a, %half
  %s = constant {value = 2.0} : f32[N]
  return %y, %s
}
