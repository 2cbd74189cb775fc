// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=5 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=5 --check --cpu=x86-64-v3 | FileCheck %s --check-prefix=CHECKED

// The block-buffer budget (256 KiB on the generic CPU target) holds for the
// variant's buffers together: five expensive tiles of 64 KiB (a row of 16384
// floats) shared by the row reduction's group with the division's would need
// 320 KiB. Exp's tile lives in y's (which the division overwrites), so it
// takes no budget; of the other four the largest are demoted one at a time
// (here tanh, which the division's group computes again) until the rest fits.
// CHECK-LABEL: kernel @k0_div
// CHECK:       variant 0 when (none) grid R:
// CHECK-NEXT:    group 0 dominant %s ops [%a, %b, %c, %d, %e, %ab, %abc, %abcd, %all, %s]: row-reduce rows R cols 16384 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:    group 1 dominant %y ops [%b, %sb, %pab, %pabc, %pabcd, %p, %y]: elementwise rows R cols 16384 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:    phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT:    buffers: %a block in %y 16384, %c block 16384, %d block 16384, %e block 16384, %s block 1
// CHECK-NEXT:    edges: %s 0->1 regional, %a 0->1 regional, %c 0->1 regional, %d 0->1 regional, %e 0->1 regional
// CHECKED: check y: pass
func @budget(%x: f32[R, 16384]) -> (y: f32[R, 16384]) {
  %a = exp %x
  %b = tanh %x
  %c = sin %x
  %d = cos %x
  %e = erf %x
  %ab = add %a, %b
  %abc = add %ab, %c
  %abcd = add %abc, %d
  %all = add %abcd, %e
  %s = reduce_sum %all {dims = [1]}
  %sb = broadcast %s {dims = [0]} : f32[R, 16384]
  %pab = mul %a, %b
  %pabc = mul %pab, %c
  %pabcd = mul %pabc, %d
  %p = mul %pabcd, %e
  %y = div %p, %sb
  return %y
}
