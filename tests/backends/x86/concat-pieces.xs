// A concat along the last dim that an element loop computes at its own
// index (through element-wise ops) is walked one operand's piece at a time:
// the row's column loop is cut where the operands meet, and each piece reads
// its operand at consecutive addresses, without the clamped reads of every
// operand and the selects among them that the loop vectorizer could only
// turn into gathers (AVX-512) or scalar loads (AVX2). A rotary embedding's
// rotate_half (concat of -x[..., 64:] and x[..., :64]) ran at 0.4 of the
// memory floor that way.
// RUN: %xstitch-run %s --function=rotate_half --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=PIECES
// RUN: %xstitch-run %s --function=rotate_half --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=VECTOR
// RUN: %xstitch-run %s --function=rotate_half --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=VECTOR
// RUN: %xstitch-run --random-inputs %s --function=rotate_half --dim R=5 --check | FileCheck %s --check-prefix=RESULT
// Pieces of symbolic length, either of them possibly empty at run time.
// RUN: %xstitch-run %s --function=symbolic --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=VECTOR
// RUN: %xstitch-run --random-inputs %s --function=symbolic --dim R=3 --dim N=21 --dim M=35 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=symbolic --dim R=3 --dim N=0 --dim M=7 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=symbolic --dim R=3 --dim N=9 --dim M=0 --check | FileCheck %s --check-prefix=RESULT
// A concat the loop also reads at another index (here transposed) keeps its
// selects for that read.
// RUN: %xstitch-run --random-inputs %s --function=crossed --check | FileCheck %s --check-prefix=RESULT

func @rotate_half(%x: f32[R, 128], %c: f32[R, 128], %s: f32[R, 128]) -> (y) {
  %lo = slice %x {start = [0, 0], limit = [R, 64]}
  %hi = slice %x {start = [0, 64], limit = [R, 128]}
  %n = neg %hi
  %r = concat %n, %lo {dim = 1}
  %a = mul %x, %c
  %b = mul %r, %s
  %y = add %a, %b
  return %y
}
// Columns [0, 64) read x at 64 + col, negated; [64, 128) at col - 64.
// PIECES-LABEL: define void @k0_add.v0(
// PIECES: [[END:%[0-9]+]] = call i64 @llvm.smin.i64(i64 128, i64 64)
// PIECES: col.body:
// PIECES-NOT: select
// PIECES: add i64 64,
// PIECES: fneg float
// PIECES-NOT: select
// PIECES: icmp slt i64 %col.next, [[END]]
// PIECES: call i64 @llvm.smax.i64(i64 0, i64 64)
// PIECES: col.body1:
// PIECES-NOT: select
// PIECES: sub i64 %col.i3, 64
// PIECES-NOT: fneg
// PIECES: col.exit2:
// VECTOR-NOT: gather
// VECTOR: load <{{8|16}} x float>
// VECTOR-NOT: gather

func @symbolic(%a: f32[R, N], %b: f32[R, M]) -> (y) {
  %c = concat %a, %b {dim = 1}
  %y = exp %c
  return %y
}

func @crossed(%a: f32[8, 3], %b: f32[8, 5]) -> (y) {
  %c = concat %a, %b {dim = 1}
  %t = transpose %c {perm = [1, 0]}
  %y = sub %c, %t
  return %y
}
// RESULT-NOT: fail
// RESULT: check y: pass
