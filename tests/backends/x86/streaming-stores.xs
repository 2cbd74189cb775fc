// Streaming stores (backends/x86/StreamingStores.cpp): a vectorized loop that
// writes a result the kernel never reads gets a copy with aligned
// non-temporal stores, entered when the runtime's stream mask marks the
// result and the loop's first store address is aligned; a fence precedes
// the return. Results a kernel reads again (softmax's y, which holds the exp
// tile) keep plain stores.
// RUN: %xstitch-run %s --function=scale --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=SCALE
// RUN: %xstitch-run %s --function=softmax --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=SOFTMAX
// Both copies of every loop run correctly: streaming from one byte, at rows
// whose starts are aligned (768 columns) and at rows whose starts mostly are
// not (771 columns), and never streaming.
// RUN: %xstitch-run --random-inputs %s --function=scale --dim N=37 --streaming-stores=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim N=37 --dim C=768 --streaming-stores=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim N=37 --dim C=771 --streaming-stores=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim N=37 --dim C=771 --streaming-stores=never --check | FileCheck %s --check-prefix=RESULT
// A result of a static size below the threshold is never versioned.
// RUN: %xstitch-run %s --function=small --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=SMALL
// RUN: %xstitch-run %s --function=small --emit=llvm --cpu=x86-64-v3 --streaming-stores=1 | FileCheck %s --check-prefix=SMALL-STREAM
// RUN: not %xstitch-run --random-inputs %s --function=scale --dim N=3 --streaming-stores=some 2>&1 | FileCheck %s --check-prefix=BADFLAG
// A bf16 result rounded by vcvtneps2bf16 (AVX512-BF16) streams through an
// empty asm, without which codegen drops the hint for that instruction's value.
// RUN: %xstitch-run %s --function=bf16_square --emit=llvm --cpu=x86-64-v4 --features=+avx512bf16 | FileCheck %s --check-prefix=BF16
// RUN: %xstitch-run --random-inputs %s --function=bf16_square --dim N=37 --streaming-stores=1 --check | FileCheck %s --check-prefix=RESULT
// So does an f16 result converted by AVX512-FP16's vcvtps2phx.
// RUN: %xstitch-run %s --function=f16_square --emit=llvm --cpu=sapphirerapids | FileCheck %s --check-prefix=F16
// RUN: %xstitch-run --random-inputs %s --function=f16_square --dim N=37 --streaming-stores=1 --check | FileCheck %s --check-prefix=RESULT

func @scale(%x: f32[N, 768], %y: f32[N, 768]) -> (s) {
  %a = add %x, %y
  %s = mul %a, %x
  return %s
}

// SCALE-LABEL: define void @k0_mul.v0(
// SCALE-SAME: i64 %streamMask)
// The block's exit (its two rows done) fences the stores before returning.
// SCALE: block.exit:
// SCALE-NEXT: call void @llvm.x86.sse.sfence()
// SCALE-NEXT: ret void
// The result s is argument 2: mask bit 4.
// SCALE: [[MARKED:%[0-9]+]] = and i64 %streamMask, 4
// SCALE: [[ALL:%[0-9]+]] = icmp eq i64 [[MARKED]], 4
// SCALE: [[LOW:%[0-9]+]] = and i64 {{%[0-9]+}}, 31
// SCALE: [[ALIGNED:%[0-9]+]] = icmp eq i64 [[LOW]], 0
// SCALE: [[STREAM:%[0-9]+]] = and i1 [[ALL]], [[ALIGNED]]
// SCALE: br i1 [[STREAM]], label %vector.body.stream, label %vector.body
// SCALE: vector.body:
// SCALE-NOT: nontemporal
// SCALE: vector.body.stream:
// SCALE: store <8 x float> {{%[0-9]+}}, ptr {{%[0-9]+}}, align 32, {{.*}}!nontemporal
// SCALE: br i1 {{%[0-9a-z.]+}}, label %{{[a-z._]+}}, label %vector.body.stream

func @softmax(%x: f32[N, C]) -> (y: f32[N, C]) {
  %y = softmax %x {axis = 1}
  return %y
}

// SOFTMAX-LABEL: define void @k0_mul.v0(
// SOFTMAX-NOT: nontemporal
// SOFTMAX-NOT: sfence
// SOFTMAX: declare

func @small(%x: f32[64, 768]) -> (s) {
  %s = exp %x
  return %s
}

// SMALL-LABEL: define void @k0_exp.v0(
// SMALL-NOT: nontemporal
// SMALL-NOT: xstitch-streamable-arguments
// SMALL: declare
// SMALL-STREAM: vector.body.stream:
// SMALL-STREAM: "xstitch-streamable-arguments"="3"

// RESULT-NOT: fail
// RESULT: pass

// BADFLAG: error: --streaming-stores takes auto, never or a positive number of bytes, not 'some'

func @bf16_square(%x: bf16[N, 1024]) -> (y: bf16[N, 1024]) {
  %xf = cast %x {to = f32}
  %s = mul %xf, %xf
  %y = cast %s {to = bf16}
  return %y
}
// BF16-LABEL: define void @k0_cast.v0(
// BF16: [[BITS:%narrow.bits[0-9]*]] = bitcast <{{[0-9]+}} x bfloat> {{%[0-9]+}} to <{{[0-9]+}} x i16>
// BF16-NEXT: [[OPAQUE:%narrow.opaque[0-9]*]] = call <{{[0-9]+}} x i16> asm "", "=v,0"(<{{[0-9]+}} x i16> [[BITS]])
// BF16-NEXT: store <{{[0-9]+}} x i16> [[OPAQUE]], ptr {{%[0-9]+}}, align 64, {{.*}}!nontemporal

func @f16_square(%x: f16[N, 1024]) -> (y: f16[N, 1024]) {
  %xf = cast %x {to = f32}
  %s = mul %xf, %xf
  %y = cast %s {to = f16}
  return %y
}
// F16-LABEL: define void @k0_cast.v0(
// F16: [[BITS:%narrow.bits[0-9]*]] = bitcast <{{[0-9]+}} x half> {{%[0-9]+}} to <{{[0-9]+}} x i16>
// F16-NEXT: [[OPAQUE:%narrow.opaque[0-9]*]] = call <{{[0-9]+}} x i16> asm "", "=v,0"(<{{[0-9]+}} x i16> [[BITS]])
// F16-NEXT: store <{{[0-9]+}} x i16> [[OPAQUE]], ptr {{%[0-9]+}}, align 64, {{.*}}!nontemporal
