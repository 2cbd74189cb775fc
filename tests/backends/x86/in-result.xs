// A block tile kept in a result (PlanBuffer::inResult): softmax's exp tile
// is stored at its elements' own positions in y's buffer (argument 1) as the
// sum's row loop computes it, and the product's loop (exp times the sum's
// reciprocal) loads each element there and stores y over it; the only stack
// arrays are the max, the sum and its reciprocal.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s

func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}

// CHECK-LABEL: define void @k0_mul.v2(
// CHECK-NEXT: entry:
// CHECK-NEXT: %block.buffer2 = alloca [1 x float], align 32
// CHECK-NEXT: %block.buffer1 = alloca [1 x float], align 32
// CHECK-NEXT: %block.buffer = alloca [1 x float], align 32
// CHECK-NOT: alloca
// CHECK: %buffer1 = load ptr, ptr
// The sum's row loop writes exp into y.
// CHECK: col.body{{[0-9]+}}:
// CHECK: [[EXP:%[0-9]+]] = getelementptr inbounds float, ptr %buffer1, i64 [[AT:%[0-9]+]]
// CHECK-NEXT: store float %{{[0-9]+}}, ptr [[EXP]]
// The product reads it back and overwrites it.
// CHECK: col.body{{[0-9]+}}:
// CHECK: [[READ:%[0-9]+]] = getelementptr inbounds float, ptr %buffer1, i64 %{{[0-9]+}}
// CHECK-NEXT: load float, ptr [[READ]]
// CHECK-NOT: col.body
// CHECK: [[WRITE:%[0-9]+]] = getelementptr inbounds float, ptr %buffer1, i64 %{{[0-9]+}}
// CHECK-NEXT: store float %{{[0-9]+}}, ptr [[WRITE]]
// CHECK-LABEL: }
