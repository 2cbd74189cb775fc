// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function group_scale --dim B=3 --dim H=5 --dim W=7 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function group_scale --dim B=2 --dim H=2 --dim W=300 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function group_scale --dim B=2 --dim H=1 --dim W=1100 --check | FileCheck %s --check-prefix=RESULT

// GroupNorm's shape as PyTorch exports it: statistics over [B, G, C/G*H*W],
// then the normalization and its per-channel bias over [B, C, H, W], whose
// rows (of W) do not align with the statistics' rows, so that its group
// takes blocks of its own after a grid barrier. Its own catch-all mapping would give each row of W a block
// (rows of 64 spent their time on each block's index arithmetic); beside the
// main's catch-all variant the kernel gets the same plan with the group's
// packed mappings, each under its own condition on W.
// CHECK-LABEL: kernel @k0_add
// CHECK: variant 2 when W <= 64 grid 2*B:
// CHECK-NEXT: group 0 dominant %s: row-reduce rows 2*B cols 4*H*W
// CHECK-NEXT: group 1 dominant %z ops [%sb, %m, %y, %bb, %z]: elementwise rows 8*B*H cols W rows/block 256 {{.*}} blocks (8*B*H + 255)/256
// CHECK: variant 3 when W <= 1024 grid 2*B:
// CHECK: group 1 dominant %z ops [%sb, %m, %y, %bb, %z]: elementwise rows 8*B*H cols W rows/block 16 {{.*}} blocks (8*B*H + 15)/16
// CHECK: variant 4 when (none) grid 2*B:
// CHECK: group 1 dominant %z ops [%sb, %m, %y, %bb, %z]: elementwise rows 8*B*H cols W rows/block 1 {{.*}} blocks 8*B*H
// CHECK-NOT: variant 5
func @group_scale(%x: f32[B, 8, H, W], %bias: f32[8]) -> (z: f32[B, 8, H, W]) {
  %r = reshape %x : f32[B, 2, 4*H*W]
  %s = reduce_sum %r {dims = [2]}
  %sb = broadcast %s {dims = [0, 1]} : f32[B, 2, 4*H*W]
  %m = mul %r, %sb
  %y = reshape %m : f32[B, 8, H, W]
  %bb = broadcast %bias {dims = [1]} : f32[B, 8, H, W]
  %z = add %y, %bb
  return %z
}
// RESULT-NOT: fail
// RESULT: check z: pass
