// Transposes of the last two dims (or of a dim moved last past the dims after
// it, collapsed: K^T of [B, S, H, D]) move V x V tiles through registers: V
// vector loads, shuffles, V vector stores (no gathers). Where a dim is not
// a multiple of V (a branch picks), the whole tiles of each run of output
// rows that share their leading index still do (unaligned loads and
// stores), and the element loop takes the rest, under V rows and columns
// of each run. Where the
// output's rows have 32V elements at least, a block is 4V output rows by
// 32V columns, walked an output row block at a time (each step writes the
// next V elements of the same V output rows), consecutive blocks taking the
// next output rows of the same columns, which read the same input rows.
// Shorter rows keep square 8V
// tiles walked input rows first, the next step's input rows prefetched.
// Optimized, the stores of a large result become streaming stores. Checked
// against the interpreter at shapes that take each path, batched, several
// blocks down the rows and strips across the columns (partial ones too),
// with runs of rows that are not multiples of V and blocks that cross them,
// and at 16 and 64 bits.
// RUN: %xstitch-run %s --function=t2d --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s
// RUN: %xstitch-run %s --function=t2d --emit=llvm --cpu=x86-64-v3 --streaming-stores=1 | FileCheck %s --check-prefix=STREAM
// RUN: %xstitch-run %s --function=t2d --explain --cpu=x86-64-v3 --dim R=1000 | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=64 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=77 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=64 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=1000 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=600 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=1200 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=t2d --dim R=1201 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=keys --dim B=3 --dim S=48 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=keys --dim B=2 --dim S=13 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=keys --dim B=3 --dim S=520 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=keys --dim B=2 --dim S=515 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=halves --dim R=160 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=halves --dim R=1100 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=head_keys --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=HEADS
// RUN: %xstitch-run --random-inputs %s --function=head_keys --dim B=2 --dim S=32 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=head_keys --dim B=1 --dim S=13 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=doubles --dim R=40 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=doubles --dim R=300 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=odd_runs --dim B=3 --dim S=37 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=odd_runs --dim B=3 --dim S=37 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=odd_runs --dim B=2 --dim S=613 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=odd_runs --dim B=2 --dim S=1027 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: fail
// PASS: check y: pass

// PLAN: variant 0 when R >= 256  <- this run
// PLAN: elementwise 96 x R, 32 rows per block, 256 columns per block, vector 8, blocks down the rows first
// PLAN: variant 1 (always)
// PLAN: elementwise 96 x R, 64 rows per block, 64 columns per block, vector 8
// PLAN-NOT: blocks down

// CHECK-LABEL: define void @k0_transpose.v0
// CHECK: %tiles.aligned = icmp eq i64
// CHECK: tile.row.body:
// CHECK: tile.col.body:
// CHECK-COUNT-8: load <8 x float>
// CHECK-NOT: llvm.prefetch
// CHECK: shufflevector <8 x float>
// CHECK-COUNT-8: store <8 x float>
// Dims that are not multiples of 8: each run of rows (one here: the
// transpose is 2-D) moves its whole tiles through registers, then element
// loops take its last columns and rows.
// CHECK: tile.run.body:
// CHECK: tile.run.exit:
// CHECK: tile.row.body{{[0-9]+}}:
// CHECK: tile.col.body{{[0-9]+}}:
// CHECK-COUNT-8: load <8 x float>{{.*}}, align 4
// CHECK: shufflevector <8 x float>
// CHECK-COUNT-8: store <8 x float>{{.*}}, align 4
// CHECK: row.body:
// CHECK: col.body:
// CHECK: row.body{{[0-9]+}}:
// CHECK: col.body{{[0-9]+}}:
// The square tiles: input rows outer, and the next step's 8 input rows, at
// the columns this one reads, prefetched (32 bytes of a row, within one
// cache line).
// CHECK-LABEL: define void @k0_transpose.v1
// CHECK: tile.col.body:
// CHECK: tile.row.body:
// CHECK-COUNT-8: call void @llvm.prefetch.p0(ptr {{%[0-9]+}}, i32 0, i32 3, i32 1)
// CHECK-NOT: llvm.prefetch
// CHECK: load <8 x float>
// CHECK: shufflevector <8 x float>
// CHECK-COUNT-8: store <8 x float>
// STREAM-LABEL: define void @k0_transpose
// STREAM: store <8 x float> {{.*}}, align 32, {{.*}}!nontemporal
func @t2d(%x: f32[R, 96]) -> (y: f32[96, R]) {
  %y = transpose %x {perm = [1, 0]}
  return %y
}

// Attention's K^T: [B, S, 64] -> [B, 64, S].
func @keys(%x: f32[B, S, 64]) -> (y: f32[B, 64, S]) {
  %y = transpose %x {perm = [0, 2, 1]}
  return %y
}

// K^T as exporters write it: [B, S, 12, 64] permuted (0, 2, 3, 1), the
// [S, 12*64] block of each batch transposed.
func @head_keys(%x: f32[B, S, 12, 64]) -> (y: f32[B, 12, 64, S]) {
  %y = transpose %x {perm = [0, 2, 3, 1]}
  return %y
}
// HEADS-LABEL: define void @k0_transpose
// HEADS: %tiles.aligned = icmp eq i64
// HEADS-COUNT-8: load <8 x float>

func @halves(%x: f16[R, 32]) -> (y: f16[32, R]) {
  %y = transpose %x {perm = [1, 0]}
  return %y
}

func @doubles(%x: f64[R, 24]) -> (y: f64[24, R]) {
  %y = transpose %x {perm = [1, 0]}
  return %y
}

// Output runs of 20 rows (the [S, 20] block of each batch transposed): runs
// are not multiples of V and blocks cross them.
func @odd_runs(%x: f32[B, S, 20]) -> (y: f32[B, 20, S]) {
  %y = transpose %x {perm = [0, 2, 1]}
  return %y
}
