// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
//
// Compiled, top_k gives the interpreter's indices exactly on the CPU and the
// NVIDIA simulation: lines longer than the CPU's chunk and not a multiple of
// it, a line of exactly k, a middle dim, columns in strips:
// RUN: %xstitch-run %s --function=sample --random-inputs --check --dim B=3 --dim V=1000 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=sample --random-inputs --check --dim B=2 --dim V=5 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=sample --random-inputs --check --dim B=5 --dim V=77 --device=nvptx-sim | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=middle_smallest --random-inputs --check --dim B=2 --dim S=33 --dim H=7 --device=cpu | FileCheck %s --check-prefix=MIDDLE
// RUN: %xstitch-run %s --function=middle_smallest --random-inputs --check --dim B=3 --dim S=9 --dim H=3 --device=nvptx-sim | FileCheck %s --check-prefix=MIDDLE
// RUN: %xstitch-run %s --function=middle_smallest --random-inputs --check --dim B=1 --dim S=9 --dim H=600 --device=cpu | FileCheck %s --check-prefix=MIDDLE
// RUN: %xstitch-run %s --function=middle_smallest --random-inputs --check --dim B=1 --dim S=9 --dim H=300 --device=nvptx-sim | FileCheck %s --check-prefix=MIDDLE
// EXACT: check values: pass
// EXACT: check idx: pass ({{[0-9]+}} elements, max abs error 0,
// MIDDLE: check idx: pass ({{[0-9]+}} elements, max abs error 0,
//
// The order on one line with ties and NaNs: largest first, NaN before every
// number; smallest first, NaN after every number; of equal elements the
// first along the line first:
// RUN: %xstitch-run %s --function=order --input x=7xf32=3,1,nan,3,-2,nan,1 --print-max-elements=7 | FileCheck %s --check-prefix=ORDER
// RUN: %xstitch-run %s --function=order --input x=7xf32=3,1,nan,3,-2,nan,1 --print-max-elements=7 --device=nvptx-sim | FileCheck %s --check-prefix=ORDER
// RUN: %xstitch-run %s --function=order --input x=7xf32=3,1,nan,3,-2,nan,1 --print-max-elements=7 --device=ref | FileCheck %s --check-prefix=ORDER
// ORDER: result largest: i64[5]  {{.*}}[2, 5, 0, 3, 1]
// ORDER: result smallest: i64[5]  {{.*}}[4, 1, 6, 0, 3]
//
// A line shorter than k is refused, by the interpreter and compiled code
// alike, when the dims are bound:
// RUN: %expect-exit 2 %xstitch-run %s --function=sample --random-inputs --dim B=2 --dim V=3 | FileCheck %s --check-prefix=SHORT
// RUN: %expect-exit 2 %xstitch-run %s --function=sample --random-inputs --dim B=2 --dim V=3 --device=ref | FileCheck %s --check-prefix=SHORT-REF
// SHORT: error: @sample: %idx = top_k {{.*}}: k = 5 needs at least 5 elements along dim 1, but it has 3
// SHORT-REF: error: {{.*}}top_k: 'k' is 5 but dim 1 of f32[2, 3] has 3 elements

// Sampling's top-k: the scaled logits' five best indices and their values.
// One kernel: the top_k group owns whole rows (its scan mapping's rows are
// the dims before dim 1), and the values read its indices from the block's
// tile in the same rows (Regional).
// CHECK-LABEL: kernel @k0_take_along_axis
// CHECK: group 0 dominant %idx ops [%t, %scaled, %idx]: scan rows B cols 5
// CHECK-NEXT: group 1 dominant %values ops [%t, %scaled, %values]: elementwise rows B cols 5
// CHECK: edges: %idx 0->1 regional
// CHECK-NOT: global
// CHECK: host @sample
func @sample(%logits: f32[B, V]) -> (values: f32[B, 5], idx: i64[B, 5]) {
  %t = constant {value = 0.7} : f32[B, V]
  %scaled = div %logits, %t
  %idx = top_k %scaled {dim = 1, k = 5}
  %values = take_along_axis %scaled, %idx {dim = 1}
  return %values, %idx
}

// Along a middle dim, smallest first: the rows are the dims before it.
// CHECK-LABEL: kernel @k0_top_k
// CHECK: group 0 dominant %idx: scan rows B cols 3*H
func @middle_smallest(%x: f32[B, S, H]) -> (idx: i64[B, 3, H]) {
  %idx = top_k %x {dim = 1, k = 3, largest = 0}
  return %idx
}

func @order(%x: f32[7]) -> (largest: i64[5], smallest: i64[5]) {
  %largest = top_k %x {dim = 0, k = 5}
  %smallest = top_k %x {dim = 0, k = 5, largest = 0}
  return %largest, %smallest
}
