// A scan down a dim other than the last advances a strip of columns one row
// at a time, each row on another page, where the hardware prefetchers stop
// (backends/common/ScanEmitter.cpp): every tensor the scan reads at its own
// index through element-wise ops is prefetched 16 KiB of strips ahead (16
// rows of f32, 64 of i8), every cache line of the strip; a broadcast operand,
// read again each row, is not; scans along the last dim read in order and
// prefetch nothing.
// RUN: %xstitch-run %s --function=masked --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=MASKED
// RUN: %xstitch-run %s --function=spread --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=SPREAD
// RUN: %xstitch-run %s --function=rows --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=ROWS
// Correct near the scan's end, where the rows ahead run out (fewer rows
// than the distance, a reverse scan) and with strips that end within a line.
// RUN: %xstitch-run --random-inputs %s --function=masked --dim N=5 --dim C=300 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=masked --dim N=70 --dim C=513 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=spread --dim N=40 --dim C=1000 --check | FileCheck %s --check-prefix=RESULT

func @masked(%x: f32[N, C], %m: i8[N, C]) -> (y) {
  %f = cast %m {to = f32}
  %p = mul %x, %f
  %y = cumsum %p {dim = 0, reverse = 1}
  return %y
}

// MASKED-LABEL: define void @k0_cumsum.v0(
// MASKED: scan.body:
// MASKED: add i64 %scan.i, 64
// MASKED: scan.prefetch.body:
// MASKED: call void @llvm.prefetch.p0(ptr {{%[0-9]+}}, i32 0, i32 3, i32 1)
// MASKED: add nuw nsw i64 %scan.prefetch.i, 64
// MASKED: add i64 %scan.i, 16
// MASKED: call void @llvm.prefetch.p0(ptr {{%[0-9]+}}, i32 0, i32 3, i32 1)
// MASKED: scan.columns.body:
// MASKED-NOT: llvm.prefetch
// MASKED: scan.columns.exit:

func @spread(%x: f32[C], %s: f32[N, C]) -> (y) {
  %b = broadcast %x {dims = [1]} : f32[N, C]
  %a = add %b, %s
  %y = cumsum %a {dim = 0}
  return %y
}

// SPREAD-LABEL: define void @k0_cumsum.v0(
// SPREAD: scan.body:
// SPREAD: add i64 %scan.i, 16
// SPREAD: call void @llvm.prefetch.p0(
// SPREAD-NOT: call void @llvm.prefetch.p0(
// SPREAD: scan.columns.body:

func @rows(%x: f32[N, C]) -> (y) {
  %y = cumsum %x {dim = 1}
  return %y
}

// ROWS-NOT: llvm.prefetch

// RESULT-NOT: fail
// RESULT: pass
