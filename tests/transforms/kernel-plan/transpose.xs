// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// A transpose is element-wise over its result (rows = H*B, cols = S); one that
// moves the last dim gets square tiles so its strided reads stay in cache.
// CHECK-LABEL: kernel @k0_transpose(%x: f32[B, S, H]) -> (%y: f32[H, B, S]) bytes 8*B*H*S {
// CHECK-NEXT:   %y = transpose %x {perm = [2, 0, 1]} : f32[H, B, S]
// CHECK-NEXT:   variant 0 when (none) grid ((B*H + 63)/64)*((S + 63)/64):
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*H cols S rows/block 64 cols/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (((B*H + 63)/64)*((S + 63)/64) + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @transpose {
// CHECK-NEXT:   symbols: [B, S, H]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, H] input 0
// CHECK-NEXT:     #1 %y: f32[H, B, S] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_transpose(#0, #1) ops [%y = transpose] bytes 8*B*H*S
// CHECK-NEXT:       k0_transpose.v0 when (none) grid ((B*H + 63)/64)*((S + 63)/64) blocks/task (((B*H + 63)/64)*((S + 63)/64) + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @transpose(%x: f32[B, S, H]) -> (y: f32[H, B, S]) {
  %y = transpose %x {perm = [2, 0, 1]}
  return %y
}
