// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// Symbolic row length: variants by predicates on C pack 256 or 16 rows
// per block for short rows; few long rows split their columns so that
// there are 2 x parallelUnits blocks; otherwise a block per row.
// CHECK-LABEL: kernel @k0_add(%a: f32[N, C], %b: f32[N, C]) -> (%y: f32[N, C]) bytes 12*C*N {
// CHECK-NEXT:   %y = add %a, %b : f32[N, C]
// CHECK-NEXT:   variant 0 when C <= 64 grid (N + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows N cols C rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when N < 4 and C > 16384 grid N*((C + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: elementwise rows N cols C rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (N*((C + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid N:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows N cols C rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (N + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @ew {
// CHECK-NEXT:   symbols: [N, C]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %a: f32[N, C] input 0
// CHECK-NEXT:     #1 %b: f32[N, C] input 1
// CHECK-NEXT:     #2 %y: f32[N, C] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_add(#0, #1, #2) ops [%y = add] bytes 12*C*N
// CHECK-NEXT:       k0_add.v0 when C <= 64 grid (N + 3)/4 blocks/task ((N + 3)/4 + 7)/8
// CHECK-NEXT:       k0_add.v1 when N < 4 and C > 16384 grid N*((C + 16383)/16384) blocks/task (N*((C + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_add.v2 when (none) grid N blocks/task (N + 7)/8
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT: }
func @ew(%a: f32[N, C], %b: f32[N, C]) -> (y: f32[N, C]) {
  %y = add %a, %b
  return %y
}

// Static shapes: one variant, 32 rows of 768 per block (about 16384
// elements), grid 4096/32.
// CHECK-LABEL: kernel @k0_mul(%a: f32[4096, 768], %b: f32[4096, 768]) -> (%y: f32[4096, 768]) bytes 37748736 {
// CHECK-NEXT:   %y = mul %a, %b : f32[4096, 768]
// CHECK-NEXT:   variant 0 when (none) grid 4096:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 4096 cols 768 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: 512 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @ew_static {
// CHECK-NEXT:   symbols: []
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %a: f32[4096, 768] input 0
// CHECK-NEXT:     #1 %b: f32[4096, 768] input 1
// CHECK-NEXT:     #2 %y: f32[4096, 768] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_mul(#0, #1, #2) ops [%y = mul] bytes 37748736
// CHECK-NEXT:       k0_mul.v0 when (none) grid 4096 blocks/task 512
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT: }
func @ew_static(%a: f32[4096, 768], %b: f32[4096, 768]) -> (y: f32[4096, 768]) {
  %y = mul %a, %b
  return %y
}

// Two rows of a million f16 (vector 16): each row splits in two so that
// there are 4 blocks.
// CHECK-LABEL: kernel @k0_exp(%a: f16[2, 1000000]) -> (%y: f16[2, 1000000]) bytes 8000000 {
// CHECK-NEXT:   %y = exp %a : f16[2, 1000000]
// CHECK-NEXT:   variant 0 when (none) grid 4:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 2 cols 1000000 rows/block 1 cols/block 500000 lanes 8 vector 16
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: host @ew_long_rows {
// CHECK-NEXT:   symbols: []
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %a: f16[2, 1000000] input 0
// CHECK-NEXT:     #1 %y: f16[2, 1000000] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_exp(#0, #1) ops [%y = exp] bytes 8000000
// CHECK-NEXT:       k0_exp.v0 when (none) grid 4
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @ew_long_rows(%a: f16[2, 1000000]) -> (y: f16[2, 1000000]) {
  %y = exp %a
  return %y
}

// Long static rows, symbolic row count: split only when rows are few.
// CHECK-LABEL: kernel @k0_neg(%a: f32[R, 100000]) -> (%y: f32[R, 100000]) bytes 800000*R {
// CHECK-NEXT:   %y = neg %a : f32[R, 100000]
// CHECK-NEXT:   variant 0 when R < 4 grid 4*R:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows R cols 100000 rows/block 1 cols/block 25000 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (4*R + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid R:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows R cols 100000 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (R + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @ew_long_sym {
// CHECK-NEXT:   symbols: [R]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %a: f32[R, 100000] input 0
// CHECK-NEXT:     #1 %y: f32[R, 100000] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_neg(#0, #1) ops [%y = neg] bytes 800000*R
// CHECK-NEXT:       k0_neg.v0 when R < 4 grid 4*R blocks/task (4*R + 7)/8
// CHECK-NEXT:       k0_neg.v1 when (none) grid R blocks/task (R + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @ew_long_sym(%a: f32[R, 100000]) -> (y: f32[R, 100000]) {
  %y = neg %a
  return %y
}

// Rank 0 maps to 1 x 1; i1 takes one byte.
// CHECK-LABEL: kernel @k0_compare(%a: i32[], %b: i32[]) -> (%y: i1[]) bytes 9 {
// CHECK-NEXT:   %y = compare %a, %b {dir = lt} : i1[]
// CHECK-NEXT:   variant 0 when (none) grid 1:
// CHECK-NEXT:     group 0 dominant %y: elementwise rows 1 cols 1 rows/block 1 lanes 8 vector 32
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT: }
// CHECK-LABEL: host @scalar {
// CHECK-NEXT:   symbols: []
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %a: i32[] input 0
// CHECK-NEXT:     #1 %b: i32[] input 1
// CHECK-NEXT:     #2 %y: i1[] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_compare(#0, #1, #2) ops [%y = compare] bytes 9
// CHECK-NEXT:       k0_compare.v0 when (none) grid 1
// CHECK-NEXT:   outputs: [#2]
// CHECK-NEXT: }
func @scalar(%a: i32[], %b: i32[]) -> (y: i1[]) {
  %y = compare %a, %b {dir = lt}
  return %y
}
