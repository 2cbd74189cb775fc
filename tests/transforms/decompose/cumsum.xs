// RUN: %xstitch-opt %s --passes=shape-inference,decompose | FileCheck %s
//
// Compiled, the decomposition agrees with the interpreter's scan (exactly for
// integers) on the CPU and the NVIDIA simulation, at a line of one and at
// lengths that are not a multiple of any vector width:
// RUN: %xstitch-run %s --function=cumsum_rows --random-inputs --check --dim B=3 --dim S=37 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=cumsum_rows --random-inputs --check --dim B=2 --dim S=1 --device=cpu | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=cumsum_rows --random-inputs --check --dim B=2 --dim S=19 --device=nvptx-sim | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=cumsum_first_exclusive_reverse --random-inputs --check --dim S=33 --dim H=5 --device=cpu | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=cumsum_first_exclusive_reverse --random-inputs --check --dim S=9 --dim H=3 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// EXACT: check y: pass ({{[0-9]+}} elements, max abs error 0,
// CHECKED: check y: pass
//
// What each flag sums, on one line of 1, 2, 3, 4:
// RUN: %xstitch-run %s --function=cumsum_line --input x=4xi32=1,2,3,4 --print-max-elements=4 | FileCheck %s --check-prefix=LINE
// RUN: %xstitch-run %s --function=cumsum_line --input x=4xi32=1,2,3,4 --print-max-elements=4 --device=ref | FileCheck %s --check-prefix=LINE
// LINE: result inclusive: i32[4]  {{.*}}[1, 3, 6, 10]
// LINE: result exclusive: i32[4]  {{.*}}[0, 1, 3, 6]
// LINE: result reverse: i32[4]  {{.*}}[10, 9, 7, 4]
// LINE: result reverse_exclusive: i32[4]  {{.*}}[9, 7, 4, 0]

// Position i of each row sums the columns j <= i: x broadcast over a new dim
// after the scanned one, masked by comparing iotas, summed over that dim.
// CHECK-LABEL: func @cumsum_rows
// CHECK-NEXT: %[[LINES:[0-9a-z_.]+]] = broadcast %x {dims = [0, 2]} : i64[B, S, S]
// CHECK-NEXT: %[[I:[0-9a-z_.]+]] = iota {dim = 1} : i64[B, S, S]
// CHECK-NEXT: %[[J:[0-9a-z_.]+]] = iota {dim = 2} : i64[B, S, S]
// CHECK-NEXT: %[[TAKEN:[0-9a-z_.]+]] = compare %[[J]], %[[I]] {dir = le} : i1[B, S, S]
// CHECK-NEXT: %[[ZERO:[0-9a-z_.]+]] = constant {value = 0} : i64[B, S, S]
// CHECK-NEXT: %[[TERMS:[0-9a-z_.]+]] = select %[[TAKEN]], %[[LINES]], %[[ZERO]] : i64[B, S, S]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = reduce_sum %[[TERMS]] {dims = [2]} : i64[B, S]
// CHECK-NEXT: return %[[Y]]
func @cumsum_rows(%x: i64[B, S]) -> (y: i64[B, S]) {
  %y = cumsum %x {dim = 1}
  return %y
}

// Along the first dim, from the end, each position leaving itself out: j > i.
// CHECK-LABEL: func @cumsum_first_exclusive_reverse
// CHECK-NEXT: broadcast %x {dims = [1, 2]} : f32[S, S, H]
// CHECK-NEXT: iota {dim = 0} : i64[S, S, H]
// CHECK-NEXT: iota {dim = 1} : i64[S, S, H]
// CHECK-NEXT: compare {{.*}} {dir = gt} : i1[S, S, H]
// CHECK-NEXT: constant {value = 0.0} : f32[S, S, H]
// CHECK-NEXT: select
// CHECK-NEXT: reduce_sum {{.*}} {dims = [1]} : f32[S, H]
// CHECK-NOT: cumsum
func @cumsum_first_exclusive_reverse(%x: f32[S, H]) -> (y: f32[S, H]) {
  %y = cumsum %x {dim = 0, exclusive = 1, reverse = 1}
  return %y
}

// CHECK-LABEL: func @cumsum_line
// CHECK: compare {{.*}} {dir = le}
// CHECK: compare {{.*}} {dir = lt}
// CHECK: compare {{.*}} {dir = ge}
// CHECK: compare {{.*}} {dir = gt}
func @cumsum_line(%x: i32[4]) -> (inclusive: i32[4], exclusive: i32[4], reverse: i32[4],
                                  reverse_exclusive: i32[4]) {
  %a = cumsum %x {dim = 0}
  %b = cumsum %x {dim = 0, exclusive = 1}
  %c = cumsum %x {dim = 0, reverse = 1}
  %d = cumsum %x {dim = 0, exclusive = 1, reverse = 1}
  return %a, %b, %c, %d
}
