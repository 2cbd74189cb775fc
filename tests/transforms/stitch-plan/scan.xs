// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
//
// Compiled, the scan agrees with the interpreter (exactly for integers) on
// the CPU and the NVIDIA simulation, at a line of one and at lengths that are
// not a multiple of any vector width:
// RUN: %xstitch-run %s --function=position_ids --random-inputs --check --dim B=3 --dim S=37 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=position_ids --random-inputs --check --dim B=2 --dim S=1 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=position_ids --random-inputs --check --dim B=2 --dim S=19 --device=nvptx-sim | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=middle_reverse --random-inputs --check --dim B=2 --dim S=33 --dim H=5 --device=cpu | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=middle_reverse --random-inputs --check --dim B=3 --dim S=9 --dim H=3 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// Columns in strips over blocks (few rows, more than 256 columns):
// RUN: %xstitch-run %s --function=middle_reverse --random-inputs --check --dim B=2 --dim S=9 --dim H=300 --device=cpu | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=middle_reverse --random-inputs --check --dim B=2 --dim S=9 --dim H=300 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=scan_then_max --random-inputs --check --dim R=3 --dim N=70000 --device=cpu | FileCheck %s --check-prefix=CHECKED
// EXACT: check ids: pass ({{[0-9]+}} elements, max abs error 0,
// CHECKED: check y: pass
//
// What each flag sums, on one line of 1, 2, 3, 4:
// RUN: %xstitch-run %s --function=cumsum_line --input x=4xi32=1,2,3,4 --print-max-elements=4 | FileCheck %s --check-prefix=LINE
// RUN: %xstitch-run %s --function=cumsum_line --input x=4xi32=1,2,3,4 --print-max-elements=4 --device=nvptx-sim | FileCheck %s --check-prefix=LINE
// RUN: %xstitch-run %s --function=cumsum_line --input x=4xi32=1,2,3,4 --print-max-elements=4 --device=ref | FileCheck %s --check-prefix=LINE
// LINE: result inclusive: i32[4]  {{.*}}[1, 3, 6, 10]
// LINE: result exclusive: i32[4]  {{.*}}[0, 1, 3, 6]
// LINE: result reverse: i32[4]  {{.*}}[10, 9, 7, 4]
// LINE: result reverse_exclusive: i32[4]  {{.*}}[9, 7, 4, 0]

// Position ids from a padding mask: the scan walks each row once, and the
// ids are computed from its tile, which lives in the ids' own memory (one
// kernel, each element read and written once).
// CHECK-LABEL: kernel @k0_add
// CHECK: variant 0 when S <= 32 grid (B + 7)/8:
// CHECK-NEXT: group 0 dominant %c: scan rows B cols S rows/block 8
// CHECK-NEXT: group 1 dominant %ids ops [%m, %one, %ids]: elementwise rows B cols S rows/block 8
// CHECK-NEXT: phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT: buffers: %c block in %ids 8*S
// CHECK-NEXT: edges: %c 0->1 regional
// CHECK-NEXT: estimated bytes 16*B*S
// CHECK: variant 1 when (none) grid B:
// CHECK-NEXT: group 0 dominant %c: scan rows B cols S rows/block 1
// CHECK-NOT: global
// CHECK: host @position_ids
func @position_ids(%mask: i64[B, S]) -> (ids: i64[B, S]) {
  %c = cumsum %mask {dim = 1}
  %m = mul %c, %mask
  %one = constant {value = 1} : i64[B, S]
  %ids = add %m, %one
  return %ids
}

// Along a middle dim, from the end: the scan is the kernel's main dominant,
// so its rows are the dims before the scanned one and the element-wise
// group shares them (Regional) instead of waiting for a grid barrier. Few
// rows of many columns first split the columns into strips over blocks,
// and the product then follows through global memory.
// CHECK-LABEL: kernel @k0_mul
// CHECK: variant 0 when B < 4 and H > 256 grid B*((H + 255)/256):
// CHECK-NEXT: group 0 dominant %c: scan rows B cols H*S rows/block 1 cols/block 256
// CHECK: edges: %c 0->1 global
// CHECK: variant 2 when (none) grid B:
// CHECK-NEXT: group 0 dominant %c: scan rows B cols H*S rows/block 1
// CHECK-NEXT: group 1 dominant %y: elementwise rows B cols H*S rows/block 1
// CHECK-NEXT: phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT: buffers: %c block in %y H*S
// CHECK-NEXT: edges: %c 0->1 regional
// CHECK: host @middle_reverse
func @middle_reverse(%x: f32[B, S, H]) -> (y: f32[B, S, H]) {
  %c = cumsum %x {dim = 1, reverse = 1}
  %y = mul %c, %x
  return %y
}

// A row reduction of a scan's rows reads them from the block that scanned
// them; few long rows split the reduction, and the scan's rows then cross
// a grid barrier.
// CHECK-LABEL: kernel @k0_reduce_max
// CHECK: variant 0 when R < {{[0-9]+}} and N >= {{[0-9]+}}
// CHECK-NEXT: group 0 dominant %y ops [%e, %y]: scan rows R cols N rows/block 1
// CHECK-NEXT: group 1 dominant %m: row-partial
// CHECK: edges: %y 0->1 global, %m 1->2 global
// CHECK: variant 2 when (none) grid R:
// CHECK-NEXT: group 0 dominant %y ops [%e, %y]: scan rows R cols N rows/block 1
// CHECK-NEXT: group 1 dominant %m: row-reduce rows R cols N rows/block 1
// CHECK: edges: %y 0->1 regional
func @scan_then_max(%x: f32[R, N]) -> (y: f32[R, N], m: f32[R]) {
  %e = exp %x
  %y = cumsum %e {dim = 1}
  %m = reduce_max %y {dims = [1]}
  return %y, %m
}

// CHECK-LABEL: kernel @k0_cumsum
// CHECK: scan rows 1 cols 4
func @cumsum_line(%x: i32[4]) -> (inclusive: i32[4], exclusive: i32[4], reverse: i32[4],
                                  reverse_exclusive: i32[4]) {
  %a = cumsum %x {dim = 0}
  %b = cumsum %x {dim = 0, exclusive = 1}
  %c = cumsum %x {dim = 0, reverse = 1}
  %d = cumsum %x {dim = 0, exclusive = 1, reverse = 1}
  return %a, %b, %c, %d
}
