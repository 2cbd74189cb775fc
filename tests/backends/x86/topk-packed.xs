// top_k on the CPU keeps a line's k best (k up to 64, elements of up to 32
// bits) as packed keys in one vector: the value's order key in the high 32
// bits, the index in the low 32 (inverted where the largest go first), so
// that one signed compare orders them with ties in line order; an insertion
// is a shift, a min and a max. The line's first chunk is inserted in rounds
// of k, k, 2k, ... lanes, each filtered by the k-th best after the rounds
// before it; later chunks are filtered with the key that beats the k-th best.
// Lines whose length is symbolic branch on it (indices of 2^32 - 1 or more
// do not fit); 64-bit elements, and targets without AVX2, keep values and
// indices apart.
// RUN: %xstitch-run %s --function=rows --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=ROWS
// RUN: %xstitch-run %s --function=smallest --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=SMALLEST
// RUN: %xstitch-run %s --function=doubles --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=DOUBLES
// Without AVX2 (16-byte vectors) values and indices are kept apart too.
// RUN: %xstitch-run %s --function=rows --emit=llvm-unopt --cpu=x86-64 | FileCheck %s --check-prefix=DOUBLES
// NaNs, -0 and +0, and ties everywhere (values -2 to 2 and NaN), largest and
// smallest first, lines shorter than a chunk, of a chunk and a lane more,
// and long ones; integers at the ends of their range.
// RUN: %xstitch-run %s --function=special --dim N=40 --dim M=1003 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=special --dim N=40 --dim M=65 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=special --dim N=40 --dim M=9 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=special_smallest --dim N=40 --dim M=1003 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=special_smallest --dim N=40 --dim M=64 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=special_smallest --dim N=40 --dim M=50 --input=a=random:-3:3 --input=b=random:-2:3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=rows --dim R=33 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=smallest --dim N=20 --dim M=300 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=ints --dim N=30 --dim M=200 --input=x=random:2147483645:2147483647 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=ints --dim N=30 --dim M=200 --input=x=random:-2147483648:-2147483645 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=ints --dim N=30 --dim M=500 --input=x=random:-2147483648:2147483647 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=bytes --dim N=30 --dim M=700 --input=x=random:0:256 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=halves --dim N=30 --dim M=130 --random-inputs --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=doubles --dim N=30 --dim M=130 --random-inputs --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: fail
// PASS: pass

func @rows(%x: f32[R, 1024]) -> (y) {
  %y = top_k %x {dim = 1, k = 8}
  return %y
}

// A constant length: no branch on it. The first chunk's four rounds (lanes
// 0-7, 8-15, 16-31, 32-63), then the loop over the other chunks.
// ROWS-LABEL: define void @k0_top_k.v0(
// ROWS-NOT: 4294967295
// ROWS: store <64 x i32> %{{.*}}, ptr %topk.keys
// ROWS: and i64 %{{.*}}, 255
// ROWS: icmp sge <64 x i32>
// ROWS: topk.bit:
// ROWS: xor i32 %{{.*}}, -1
// ROWS: shl i64 %{{.*}}, 32
// ROWS: call <8 x i64> @llvm.smax.v8i64(
// ROWS: call <8 x i64> @llvm.smin.v8i64(
// ROWS: and i64 %{{.*}}, 65280
// ROWS: call i32 @llvm.sadd.sat.i32(
// ROWS: and i64 %{{.*}}, 4294901760
// ROWS: and i64 %{{.*}}, -4294967296
// ROWS: topk.chunks.body:
// ROWS: topk.chunks.exit:
// ROWS: trunc <8 x i64> %{{.*}} to <8 x i32>
// ROWS: xor <8 x i32>
// ROWS: icmp sge <64 x i32>
// ROWS: call <8 x i64> @llvm.smax.v8i64(
// ROWS: call <8 x i64> @llvm.smin.v8i64(

func @smallest(%x: f32[N, M]) -> (y) {
  %y = top_k %x {dim = 1, k = 50, largest = 0}
  return %y
}

// A symbolic length: packed keys below 2^32 - 1 elements, else values and
// indices apart. Smallest first: the index not inverted, min and max swapped.
// SMALLEST-LABEL: define void @k0_top_k.v0(
// SMALLEST: icmp ult i64 %{{.*}}, 4294967295
// SMALLEST: icmp sle <64 x i32>
// SMALLEST-NOT: xor i32 %{{.*}}, -1
// SMALLEST: call <64 x i64> @llvm.smin.v64i64(
// SMALLEST: call <64 x i64> @llvm.smax.v64i64(
// SMALLEST: call i32 @llvm.ssub.sat.i32(
// SMALLEST: topk.fill.body:
// SMALLEST-NOT: @llvm.smin.v64i64
// SMALLEST: fcmp olt <64 x float>

func @special(%a: i32[N, M], %b: i32[N, M]) -> (y) {
  %fa = cast %a {to = f32}
  %fb = cast %b {to = f32}
  %m = abs %fa
  %s = div %fa, %m
  %v = mul %fb, %s
  %y = top_k %v {dim = 1, k = 8}
  return %y
}

func @special_smallest(%a: i32[N, M], %b: i32[N, M]) -> (y) {
  %fa = cast %a {to = f32}
  %fb = cast %b {to = f32}
  %m = abs %fa
  %s = div %fa, %m
  %v = mul %fb, %s
  %y = top_k %v {dim = 1, k = 50, largest = 0}
  return %y
}

func @ints(%x: i32[N, M]) -> (y, z) {
  %y = top_k %x {dim = 1, k = 13}
  %z = top_k %x {dim = 1, k = 64, largest = 0}
  return %y, %z
}

func @bytes(%x: u8[N, M]) -> (y) {
  %y = top_k %x {dim = 1, k = 33}
  return %y
}

func @halves(%x: f16[N, M]) -> (y) {
  %y = top_k %x {dim = 1, k = 5, largest = 0}
  return %y
}

func @doubles(%x: f64[N, M]) -> (y) {
  %y = top_k %x {dim = 1, k = 8}
  return %y
}

// DOUBLES-LABEL: define void @k0_top_k.v0(
// DOUBLES-NOT: 4294967295
// DOUBLES: topk.fill.body:
// DOUBLES-NOT: @llvm.smax.v8i64
// DOUBLES: topk.chunks.exit:
