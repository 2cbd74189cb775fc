// A stitched kernel with a Regional edge: the producer's block tile stays in
// a block buffer (an aligned stack array), written at `linear - origin` and
// read back at the same offset by the next stage; one phase, one function.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s

func @regional(%a: f32[R], %b: f32[R], %x: f32[R, 64]) -> (y) {
  %p = pow %a, %b
  %pb = broadcast %p {dims = [0]} : f32[R, 64]
  %y = add %x, %pb
  return %y
}

// CHECK-LABEL: define void @k0_add.v0(
// CHECK: entry:
// CHECK-NEXT: %block.buffer = alloca [4 x float], align 32
// CHECK: col.body:
// CHECK: [[AT:%[0-9]+]] = sub nuw nsw i64 %{{[0-9]+}}, [[ORIGIN:%[0-9]+]]
// CHECK-NEXT: [[SLOT:%[0-9]+]] = getelementptr inbounds float, ptr %block.buffer, i64 [[AT]]
// CHECK-NEXT: store float %{{[0-9]+}}, ptr [[SLOT]]
// The add's stage reads the tile back.
// CHECK: col.body{{[0-9]+}}:
// CHECK: [[READ:%[0-9]+]] = sub nuw nsw i64 %row.{{[a-z]+[0-9]+}}, [[ORIGIN]]
// CHECK-NEXT: getelementptr inbounds float, ptr %block.buffer, i64 [[READ]]
// CHECK-NOT: define
