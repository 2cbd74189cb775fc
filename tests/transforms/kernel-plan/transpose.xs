// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// A transpose is element-wise over its result (rows = H*B, cols = S).
// CHECK-LABEL: kernel @k0_transpose(%x: f32[B, S, H]) -> (%y: f32[H, B, S]) bytes 8*B*H*S {
// CHECK-NEXT:   %y = transpose %x {perm = [2, 0, 1]} : f32[H, B, S]
// CHECK-NEXT:   variant 0 when S <= 64 grid (B*H + 255)/256:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*H cols S rows/block 256 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:   variant 1 when S <= 1024 grid (B*H + 15)/16:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*H cols S rows/block 16 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:   variant 2 when B*H < 4 and S > 16384 grid B*H*((S + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*H cols S rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:   variant 3 when (none) grid B*H:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*H cols S rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: host @transpose {
// CHECK-NEXT:   symbols: [B, S, H]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, H] input 0
// CHECK-NEXT:     #1 %y: f32[H, B, S] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_transpose(#0, #1) ops [%y = transpose] bytes 8*B*H*S
// CHECK-NEXT:       k0_transpose.v0 when S <= 64 grid (B*H + 255)/256
// CHECK-NEXT:       k0_transpose.v1 when S <= 1024 grid (B*H + 15)/16
// CHECK-NEXT:       k0_transpose.v2 when B*H < 4 and S > 16384 grid B*H*((S + 16383)/16384)
// CHECK-NEXT:       k0_transpose.v3 when (none) grid B*H
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @transpose(%x: f32[B, S, H]) -> (y: f32[H, B, S]) {
  %y = transpose %x {perm = [2, 0, 1]}
  return %y
}
