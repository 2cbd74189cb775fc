// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=77 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=1 --check | FileCheck %s --check-prefix=CHECKED

// Sub-dominants along a chain: the sum's group keeps exp in a block buffer
// for the two later groups; the second reduction's group reads it and keeps
// log(e / s) for the last group, which then needs neither e / s nor a buffer
// for it.
// CHECK-LABEL: kernel @k0_add
// CHECK:       variant 0 when (none) grid (R + 3)/4:
// CHECK-NEXT:    group 0 dominant %m: row-reduce rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:    group 1 dominant %s ops [%mb, %d, %e, %s]: row-reduce rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:    group 2 dominant %t ops [%sb, %q, %l, %t]: row-reduce rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:    group 3 dominant %y ops [%tb, %le, %y]: elementwise rows R cols 64 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:    phase 0: stage 0: groups [0]; stage 1: groups [1]; stage 2: groups [2]; stage 3: groups [3]
// CHECK-NEXT:    buffers: %e block 256, %l block 256, %m block 4, %s block 4
// CHECK-NEXT:    edges: %m 0->1 regional, %s 1->2 regional, %t 2->3 regional, %e 1->2 regional, %e 1->3 regional, %l 2->3 regional
// CHECKED: check y: pass
// CHECKED: check t: pass
func @chain(%x: f32[R, 64]) -> (y: f32[R, 64], t: f32[R]) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, 64]
  %d = sub %x, %mb
  %e = exp %d
  %s = reduce_sum %e {dims = [1]}
  %sb = broadcast %s {dims = [0]} : f32[R, 64]
  %q = div %e, %sb
  %l = log %q
  %t = reduce_sum %l {dims = [1]}
  %tb = broadcast %t {dims = [0]} : f32[R, 64]
  %le = mul %l, %e
  %y = add %le, %tb
  return %y, %t
}
