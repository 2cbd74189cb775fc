// Storage and compute types: f16 loads extend to f32 and stores truncate,
// bf16 stores round with integer operations (no library call), i1 is a byte.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

func @types(%h: f16[N], %x: f32[N]) -> (a, b, c) {
  %a = add %h, %h
  %b = cast %x {to = bf16}
  %c = is_nan %x
  return %a, %b, %c
}

// CHECK-LABEL: define void @k0_add.v0(
// CHECK: %[[H:[0-9]+]] = load half, ptr
// CHECK: fpext half %[[H]] to float
// CHECK: fadd float
// CHECK: %[[T:[0-9]+]] = fptrunc float %{{[0-9]+}} to half
// CHECK: store half %[[T]], ptr

// CHECK-LABEL: define void @k1_cast.v0(
// CHECK: add i32 32767, %{{[0-9]+}}
// CHECK: store i16

// CHECK-LABEL: define void @k2_is_nan.v0(
// CHECK: %[[NAN:[0-9]+]] = fcmp uno float
// CHECK: %[[BYTE:[0-9]+]] = zext i1 %[[NAN]] to i8
// CHECK: store i8 %[[BYTE]], ptr
