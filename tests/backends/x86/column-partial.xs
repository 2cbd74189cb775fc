// Column reductions split over row blocks (column-partial + column-combine,
// two phases) against the reference interpreter: the split variant from 512
// reduced rows up (R = 513: 2052 rows, a ragged last block; R = 160: 640
// rows, 5 full blocks), the strip variant below, several reduced dims, every reduction kind with
// partials (f16 and bf16 too), and a stitched kernel whose partials read a row reduction's tile.
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=513 --dim C=3 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=160 --dim C=1 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=1 --dim C=17 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=5000 --dim C=33 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=extremes --dim R=1000 --dim C=19 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=extremes --dim R=511 --dim C=19 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=halves --dim R=1500 --dim C=21 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=stitched --dim R=2053 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=stitched --dim R=7 --check | FileCheck %s
// RUN: %xstitch-run %s --function=sums --dim R=513 --dim C=3 --explain | FileCheck %s --check-prefix=PLAN
// CHECK-NOT: fail
// CHECK: pass
// CHECK-NOT: fail
// PLAN: variant 0 when 4*R >= 512
// PLAN: dominant %s = reduce_sum at {{.*}}; column-partial 4*R x C, 128 rows per block
// PLAN: dominant %s = reduce_sum at {{.*}}; column-combine (4*R + 127)/128 x C
// PLAN: edge %s: group 0 -> group 2 global
// PLAN: buffer %s: global partials (f64)
func @sums(%x: f32[R, 4, C]) -> (s: f32[C], p: f64[C]) {
  %s = reduce_sum %x {dims = [0, 1]}
  %xd = cast %x {to = f64}
  %p = reduce_prod %xd {dims = [0, 1]}
  return %s, %p
}

func @extremes(%x: f32[R, C]) -> (mx: f32[C], mn: f32[C]) {
  %mx = reduce_max %x {dims = [0]}
  %mn = reduce_min %x {dims = [0]}
  return %mx, %mn
}

// Half-precision states are computed and kept in f32.
func @halves(%x: f16[R, C], %y: bf16[R, C]) -> (mx: f16[C], mn: bf16[C], s: f16[C]) {
  %mx = reduce_max %x {dims = [0]}
  %mn = reduce_min %y {dims = [0]}
  %s = reduce_sum %x {dims = [0]}
  return %mx, %mn, %s
}

func @stitched(%x: f32[R, 64]) -> (y: f32[64]) {
  %m = reduce_max %x {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, 64]
  %d = sub %x, %mb
  %y = reduce_sum %d {dims = [0]}
  return %y
}
