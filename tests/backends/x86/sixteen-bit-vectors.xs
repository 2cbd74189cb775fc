// f16 and bf16 vectors on x86. LLVM's InstCombine narrows compares and
// min/max of extended f16 values back to half; without AVX512-FP16 codegen
// would take those vectors apart lane by lane, so PromoteHalfVectorsPass
// gives them back to f32 after the optimizer (softmax's NaN check of each
// element). With AVX512-FP16 the half compare stays: the CPU has it.
// RUN: %xstitch-run %s --function=softmax --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=PROMOTED
// RUN: %xstitch-run %s --function=softmax --emit=llvm --cpu=x86-64-v4 --features=+avx512fp16 | FileCheck %s --check-prefix=NATIVE
//
// bf16 rounds in one vcvtneps2bf16 where the CPU has AVX512-BF16 and the
// kernel flushes subnormals (the instruction does); otherwise by integer
// operations, as kept subnormals need.
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 --features=+avx512bf16 | FileCheck %s --check-prefix=BF16-NATIVE
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 --features=+avx512bf16 --keep-denormals | FileCheck %s --check-prefix=BF16-BITS
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=BF16-BITS
// RUN: %xstitch-run %s --function=softmax --dim R=37 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=amp_softmax --dim R=37 --check | FileCheck %s --check-prefix=PASS
// PASS: check y: pass

func @softmax(%x: f16[R, 1024]) -> (y: f16[R, 1024]) {
  %y = softmax %x {axis = 1}
  return %y
}
// PROMOTED-LABEL: define void @k0_mul.v0(
// PROMOTED-NOT: fcmp {{[a-z]+}} <{{[0-9]+}} x half>
// PROMOTED: fcmp uno <{{[0-9]+}} x float>
// PROMOTED-NOT: fcmp {{[a-z]+}} <{{[0-9]+}} x half>
// PROMOTED: ret void
// NATIVE-LABEL: define void @k0_mul.v0(
// NATIVE: fcmp uno <{{[0-9]+}} x half>

func @amp_softmax(%x: bf16[R, 1024]) -> (y: bf16[R, 1024]) {
  %xf = cast %x {to = f32}
  %yf = softmax %xf {axis = 1}
  %y = cast %yf {to = bf16}
  return %y
}
// BF16-NATIVE-LABEL: define void @k0_cast.v0(
// BF16-NATIVE: fptrunc <{{[0-9]+}} x float> {{%[0-9]+}} to <{{[0-9]+}} x bfloat>
// BF16-BITS-LABEL: define void @k0_cast.v0(
// BF16-BITS-NOT: bfloat
// BF16-BITS: lshr <{{[0-9]+}} x i32> {{%[0-9]+}}, {{<i32 16|splat \(i32 16\)}}
