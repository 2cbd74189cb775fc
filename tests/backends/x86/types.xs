// Storage and compute types: f16 loads extend to f32 and stores truncate,
// bf16 is held as its bits (i16): loads shift them into an f32, stores round
// with integer operations (no library call), i1 is a byte. The optimized IR
// has no bfloat value that the x86 backend would lower to a library call
// (a compare of loaded bf16 values once became __truncsfbf2).
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion --function=types | FileCheck %s
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --function=bf16_min | FileCheck %s --check-prefix=BF16
// RUN: %xstitch-run %s --emit=llvm --cpu=x86-64-v3 --function=bf16_min | FileCheck %s --check-prefix=OPT

func @types(%h: f16[N], %x: f32[N]) -> (a, b, c) {
  %a = add %h, %h
  %b = cast %x {to = bf16}
  %c = is_nan %x
  return %a, %b, %c
}

func @bf16_min(%y: bf16[R, C]) -> (m: bf16[R]) {
  %m = reduce_min %y {dims = [1]}
  return %m
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

// BF16-LABEL: define void @k0_reduce_min.v0(
// BF16: %[[B:[0-9]+]] = load i16, ptr
// BF16: %[[W:[0-9]+]] = zext i16 %[[B]] to i32
// BF16: %[[S:[0-9]+]] = shl i32 %[[W]], 16
// BF16: bitcast i32 %[[S]] to float

// OPT-NOT: {{bfloat|__truncsfbf2}}
