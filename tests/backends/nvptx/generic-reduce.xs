// The Generic mapping on a GPU: a sum over dims that are not adjacent. The
// block's lanes (all 256: the reduced count A * C is symbolic) split each
// result's reduction, merge their partial sums through warp shuffles and
// shared memory, and lane 0 stores.
// RUN: %xstitch-run %s --function=outer_sum --explain --target=sm_90 | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-run %s --function=outer_sum --emit=nvptx-llvm --target=sm_90 | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=outer_sum --device=nvptx-sim --dim A=5 --dim B=77 --dim C=9 --check | FileCheck %s --check-prefix=SIM
//
// Short reductions (15 elements each) pack a block's worth of results, a
// lane each: 256 results per block of 256 lanes, no merging.
// RUN: %xstitch-run %s --function=short_sum --explain --target=sm_90 | FileCheck %s --check-prefix=SHORT-PLAN
// RUN: %xstitch-run %s --function=short_sum --emit=nvptx-llvm --target=sm_90 | FileCheck %s --check-prefix=SHORT
// RUN: %xstitch-run --random-inputs %s --function=short_sum --device=nvptx-sim --dim B=1000 --check | FileCheck %s --check-prefix=SIM
// RUN: %if ptxas %{ %xstitch-run %s --function=outer_sum --emit=ptx --target=sm_90 > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: %if ptxas %{ %xstitch-run %s --function=short_sum --emit=ptx --target=sm_90 > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
func @outer_sum(%x: f32[A, B, C]) -> (y: f32[B]) {
  %y = reduce_sum %x {dims = [0, 2]}
  return %y
}
// PLAN: grid B blocks of 256 lanes, 1 phase
// PLAN: dominant %y = reduce_sum at {{.*}}; generic B x 1
// CHECK: define ptx_kernel void @"k0_reduce_sum_$_v0"
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK: reduce.body:
// CHECK: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: icmp eq i64 %{{.*}}, 0
// CHECK: store float
// SIM: check y: pass

func @short_sum(%x: f32[3, B, 5]) -> (y: f32[B]) {
  %y = reduce_sum %x {dims = [0, 2]}
  return %y
}
// SHORT-PLAN: blocks of {{[0-9]+}} lanes, 1 phase
// SHORT-PLAN: generic B x 1, {{[0-9]+}} rows per block, a lane per row
// SHORT: define ptx_kernel void @"k0_reduce_sum_$_v0"
// SHORT-NOT: shfl
// SHORT-NOT: barrier0
// SHORT: ret void
