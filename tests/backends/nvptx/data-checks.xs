// Data checks on NVIDIA GPUs: each thread keeps the largest status word its
// elements raise (an index out of range) and, if any, adds it to the run's
// status word after the symbols with a 64-bit atomic maximum in global
// memory; the runtime reads the word after the run. The PTX assembles.
// RUN: %xstitch-run %s --emit=nvptx-llvm --target=sm_90 | FileCheck %s
// RUN: %xstitch-run %s --emit=ptx --target=sm_80 > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}
// CHECK-LABEL: define ptx_kernel void @"k0_gather_$_v0"(ptr noalias nocapture readonly %buffers, ptr noalias nocapture %dims,
// CHECK: %raised = alloca i64
// CHECK: call i64 @llvm.umax.i64(
// CHECK: store i64 %{{[0-9]+}}, ptr %raised
// CHECK: atomicrmw umax ptr %{{[0-9]+}}, i64 %{{[0-9]+}} monotonic
// PTX: atom.global.max.u64
func @pick(%x: f32[N, 64], %i: i64[M]) -> (y: f32[M, 64]) {
  %y = gather %x, %i {dim = 0}
  return %y
}
