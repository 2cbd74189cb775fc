// Row argmax and float row max on NVIDIA GPUs spread each row's columns over
// the block's threads like sums do. argmax's lanes merge (value, index)
// states: both shuffled (the i64 index as two 32-bit halves), the better
// value winning and, of equal values or two NaNs, the smaller index; a float
// max merges with the NaN-propagating maximum (the flagged form serves only
// vectorized CPU loops). The PTX assembles.
// RUN: %xstitch-run %s --function=rows_argmax --emit=nvptx-llvm --target=sm_90 | FileCheck %s --check-prefix=ARG
// RUN: %xstitch-run %s --function=rows_max --emit=nvptx-llvm --target=sm_90 | FileCheck %s --check-prefix=MAX
// RUN: %xstitch-run %s --function=rows_argmax --emit=ptx --target=sm_80 > %t.argmax.ptx
// RUN: %xstitch-run %s --function=rows_max --emit=ptx --target=sm_90 > %t.max.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.argmax.ptx -o %t.argmax.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.max.ptx -o %t.max.cubin %}

// ARG:      define ptx_kernel void @"k0_argmax_$_v0"
// ARG:        %lane.run = add i64
// ARG:        %lane.col = add i64
// ARG:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// ARG:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// ARG:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// ARG:        icmp slt i64
// ARG:        %run.next = add nuw nsw i64 %run.i,
// ARG:        %col.next = add nuw nsw i64 %col.i,
// ARG:        call void @llvm.nvvm.barrier0()
// ARG:        @xs_reduce_slots
func @rows_argmax(%x: f32[R, C]) -> (y: i64[R]) {
  %y = argmax %x {dim = 1}
  return %y
}

// MAX:      define ptx_kernel void @"k0_reduce_max_$_v0"
// MAX:        %lane.col = add i64
// MAX-NOT:    @llvm.maxnum
// MAX:        call float @llvm.maximum.f32
// MAX:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// MAX:        call float @llvm.maximum.f32
func @rows_max(%x: f32[R, C]) -> (y: f32[R]) {
  %y = reduce_max %x {dims = [1]}
  return %y
}
