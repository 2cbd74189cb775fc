// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// gather: element-wise over the result; the indices are a parameter too.
// CHECK-LABEL: kernel @k0_gather(%table: f32[V, 512], %ids: i32[B, S]) -> (%y: f32[B, S, 512]) bytes 2052*B*S + 2048*V {
// CHECK-NEXT:   %y = gather %table, %ids {dim = 0} : f32[B, S, 512]
// CHECK-NEXT:   variant 0 when (none) grid B*S:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B*S cols 512 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @embed {
// CHECK-NEXT:   symbols: [V, B, S]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %table: f32[V, 512] input 0
// CHECK-NEXT:     #1 %ids: i32[B, S] input 1
// CHECK-NEXT:     #2 %y: f32[B, S, 512] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_gather(#0, #1, #2) ops [%y = gather] bytes 2052*B*S + 2048*V
// CHECK-NEXT:       k0_gather.v0 when (none) grid B*S blocks/task (B*S + 7)/8
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT:   checks:
// CHECK-NEXT:     0: %y = gather in k0_gather: index out of range for a dim of size V
// CHECK-NEXT: }
func @embed(%table: f32[V, 512], %ids: i32[B, S]) -> (y: f32[B, S, 512]) {
  %y = gather %table, %ids {dim = 0}
  return %y
}

// take_along_axis with one column: rows pack up to a full block.
// CHECK-LABEL: kernel @k0_take_along_axis(%x: f32[B, K], %idx: i64[B, 1]) -> (%y: f32[B, 1]) bytes 4*B*K + 12*B {
// CHECK-NEXT:   %y = take_along_axis %x, %idx {dim = 1} : f32[B, 1]
// CHECK-NEXT:   variant 0 when (none) grid (B + 255)/256:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows B cols 1 rows/block 256 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B + 255)/256 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @take {
// CHECK-NEXT:   symbols: [B, K]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, K] input 0
// CHECK-NEXT:     #1 %idx: i64[B, 1] input 1
// CHECK-NEXT:     #2 %y: f32[B, 1] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_take_along_axis(#0, #1, #2) ops [%y = take_along_axis] bytes 4*B*K + 12*B
// CHECK-NEXT:       k0_take_along_axis.v0 when (none) grid (B + 255)/256 blocks/task ((B + 255)/256 + 7)/8
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT:   checks:
// CHECK-NEXT:     0: %y = take_along_axis in k0_take_along_axis: index out of range for a dim of size K
// CHECK-NEXT: }
func @take(%x: f32[B, K], %idx: i64[B, 1]) -> (y: f32[B, 1]) {
  %y = take_along_axis %x, %idx {dim = 1}
  return %y
}
