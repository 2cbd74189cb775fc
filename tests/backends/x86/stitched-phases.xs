// Global edges: a column reduction that every row needs puts the last group
// in a later phase. The x86 target has no grid barrier inside a function,
// so each phase is a function of its own (`.p1`, `.p2`), which the runtime
// runs as parallel rounds; values crossing phases live in scratch buffers,
// kernel arguments after the results.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s

func @figure7(%x: f32[R, 256]) -> (y) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, 256]
  %d = sub %x, %mb
  %c = reduce_sum %d {dims = [0]}
  %cb = broadcast %c {dims = [1]} : f32[R, 256]
  %y = mul %d, %cb
  return %y
}

// Phase 0: the row maxima, written to scratch (argument 2, %m).
// CHECK-LABEL: define void @k0_mul.v0(
// CHECK: [[M:%[0-9]+]] = getelementptr inbounds float, ptr %buffer2, i64 %row.i
// CHECK-NEXT: store float %{{[0-9]+}}, ptr [[M]]
// Phase 1: the column sums, with their (f64) accumulators in a block buffer, read
// %m back from scratch instead of recomputing it.
// CHECK-LABEL: define void @k0_mul.v0.p1(
// CHECK-NEXT: entry:
// CHECK-NEXT: %block.buffer = alloca [64 x double], align 32
// CHECK: getelementptr inbounds float, ptr %buffer2
// Phase 2: the product reads %c from scratch (argument 3) and writes %y.
// CHECK-LABEL: define void @k0_mul.v0.p2(
// CHECK: getelementptr inbounds float, ptr %buffer3
// CHECK-NOT: define
