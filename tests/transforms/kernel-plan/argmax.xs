// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// argmax over the last dim is a row reduction.
// CHECK-LABEL: kernel @k0_argmax(%x: f32[B, V]) -> (%y: i64[B]) bytes 4*B*V + 8*B {
// CHECK-NEXT:   %y = argmax %x {dim = 1} : i64[B]
// CHECK-NEXT:   variant 0 when V <= 64 grid (B + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows B cols V rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid B:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows B cols V rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @last {
// CHECK-NEXT:   symbols: [B, V]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, V] input 0
// CHECK-NEXT:     #1 %y: i64[B] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_argmax(#0, #1) ops [%y = argmax] bytes 4*B*V + 8*B
// CHECK-NEXT:       k0_argmax.v0 when V <= 64 grid (B + 3)/4 blocks/task ((B + 3)/4 + 7)/8
// CHECK-NEXT:       k0_argmax.v1 when (none) grid B blocks/task (B + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @last(%x: f32[B, V]) -> (y: i64[B]) {
  %y = argmax %x {dim = 1}
  return %y
}

// argmin over a middle dim is generic: one row per output, S elements each.
// CHECK-LABEL: kernel @k0_argmin(%x: f32[B, S, H]) -> (%y: i64[B, H]) bytes 4*B*H*S + 8*B*H {
// CHECK-NEXT:   %y = argmin %x {dim = 1} : i64[B, H]
// CHECK-NEXT:   variant 0 when S <= 64 grid (B*H + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: generic rows B*H cols 1 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B*H + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid B*H:
// CHECK-NEXT:     group 0 dominant %y: generic rows B*H cols 1 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*H + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @middle {
// CHECK-NEXT:   symbols: [B, S, H]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, H] input 0
// CHECK-NEXT:     #1 %y: i64[B, H] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_argmin(#0, #1) ops [%y = argmin] bytes 4*B*H*S + 8*B*H
// CHECK-NEXT:       k0_argmin.v0 when S <= 64 grid (B*H + 3)/4 blocks/task ((B*H + 3)/4 + 7)/8
// CHECK-NEXT:       k0_argmin.v1 when (none) grid B*H blocks/task (B*H + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @middle(%x: f32[B, S, H]) -> (y: i64[B, H]) {
  %y = argmin %x {dim = 1}
  return %y
}
