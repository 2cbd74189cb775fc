// f16 and bf16 vectors on x86. LLVM's InstCombine narrows compares and
// min/max of extended f16 values back to half; without AVX512-FP16 codegen
// would take those vectors apart lane by lane, so PromoteHalfVectorsPass
// gives them back to f32 after the optimizer. With AVX512-FP16 the half
// compare and max stay: the CPU has them.
// RUN: %xstitch-run %s --function=pick --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=PROMOTED
// RUN: %xstitch-run %s --function=pick --emit=llvm --cpu=x86-64-v4 --features=+avx512fp16 | FileCheck %s --check-prefix=NATIVE
// RUN: %xstitch-run --random-inputs %s --function=pick --dim R=37 --check | FileCheck %s --check-prefix=PASS
//
// bf16 rounds in one vcvtneps2bf16 where the CPU has AVX512-BF16 and the
// kernel flushes subnormals (the instruction does); otherwise by integer
// operations, as kept subnormals need.
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 --features=+avx512bf16 | FileCheck %s --check-prefix=BF16-NATIVE
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 --features=+avx512bf16 --keep-denormals | FileCheck %s --check-prefix=BF16-BITS
// RUN: %xstitch-run %s --function=amp_softmax --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=BF16-BITS
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=37 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=amp_softmax --dim R=37 --check | FileCheck %s --check-prefix=PASS
// PASS: check {{[yz]}}: pass

func @softmax(%x: f16[R, 1024]) -> (y: f16[R, 1024]) {
  %y = softmax %x {axis = 1}
  return %y
}

func @pick(%x: f16[R, 1024], %y: f16[R, 1024]) -> (z: f16[R, 1024]) {
  %m = max %x, %y
  %c = compare %x, %y {dir = lt}
  %z = select %c, %m, %x
  return %z
}
// PROMOTED-LABEL: define void @k0_select.v0(
// PROMOTED-NOT: x half> @llvm.maxnum
// PROMOTED-NOT: fcmp {{[a-z]+}} <{{[0-9]+}} x half>
// PROMOTED: fcmp olt <{{[0-9]+}} x float>
// PROMOTED-NOT: fcmp {{[a-z]+}} <{{[0-9]+}} x half>
// PROMOTED-NOT: x half> @llvm.maxnum
// PROMOTED: attributes #0
// NATIVE-LABEL: define void @k0_select.v0(
// NATIVE: fcmp olt <{{[0-9]+}} x half>

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
