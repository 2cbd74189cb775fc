// Emitted LLVM IR of an element-wise kernel: the kernel ABI, the block loop,
// rows outer and a vectorizable inner loop over the columns with contiguous
// loads and stores, annotated for the loop vectorizer.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

func @add(%x: f32[N, 768], %y: f32[N, 768]) -> (s) {
  %s = add %x, %y
  return %s
}

// CHECK-LABEL: define void @k0_add.v0(ptr noalias nocapture readonly %buffers, ptr noalias nocapture readonly %dims, i64 %blockBegin, i64 %blockEnd, i64 %streamMask)
// CHECK: entry:
// CHECK: %buffer0 = load ptr, ptr
// CHECK: %buffer1 = load ptr, ptr
// CHECK: %buffer2 = load ptr, ptr
// CHECK: %dim0 = load i64, ptr
// CHECK: icmp slt i64 %blockBegin, %blockEnd
// CHECK: block.body:
// CHECK: %block.i = phi i64 [ %blockBegin, %entry ]
// CHECK: row.body:
// CHECK: %[[ROWSTART:[0-9]+]] = mul nuw nsw i64 %row.i, 768
// CHECK: col.body:
// CHECK: %col.i = phi i64
// CHECK: %[[OUT:[0-9]+]] = add nuw nsw i64 %[[ROWSTART]], %col.i
// CHECK: %[[A:[0-9]+]] = load float, ptr
// CHECK: %[[B:[0-9]+]] = load float, ptr
// CHECK: %[[SUM:[0-9]+]] = fadd float %[[A]], %[[B]]
// CHECK: %[[PTR:[0-9]+]] = getelementptr inbounds float, ptr %buffer2, i64 %[[OUT]]
// CHECK: store float %[[SUM]], ptr %[[PTR]]
// CHECK: %col.next = add nuw nsw i64 %col.i, 1
// CHECK: br i1 %{{[0-9]+}}, label %col.body, label %col.exit, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: attributes #0 = { nounwind {{.*}}"target-cpu"="x86-64-v3"
// The column loop (768 iterations) is vectorized, and the loops the
// vectorizer leaves are not unrolled.
// CHECK: [[NOUNROLL:![0-9]+]] = !{!"llvm.loop.unroll.disable"}
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[ENABLE:[0-9]+]], ![[FOLLOWUP:[0-9]+]]}
// CHECK-NEXT: ![[ENABLE]] = !{!"llvm.loop.vectorize.enable", i1 true}
// CHECK-NEXT: ![[FOLLOWUP]] = !{!"llvm.loop.vectorize.followup_all", ![[VECTORIZED:[0-9]+]], [[NOUNROLL]]}
// CHECK-NEXT: ![[VECTORIZED]] = !{!"llvm.loop.isvectorized", i32 1}
