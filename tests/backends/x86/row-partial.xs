// Row reductions over few, long rows split into chunks of 16384 columns over
// blocks (row-partial + row-combine, two phases) against the reference
// interpreter: the split variant below 4 rows from 65536 columns up (65536:
// four whole chunks; 65537 and 100003: a ragged last chunk), the unsplit
// variants beside it (4 rows; 4 x 16383 columns), several reduced dims, sums
// (f32 and f64), maxima and minima (f16 and bf16 too; ramps whose extremes
// sit in the first and last chunks), and stitched kernels
// whose element-wise groups split their rows into the same chunks.
// Sums take inputs in [0, 1): a sum of 280000 signed values can cancel to
// a few units, where f32 rounding alone exceeds rtol 1e-4 (the unsplit
// variant adds in f32); a chunk left out still moves a sum by 5% or more.
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=1 --dim C=65536 --input x=random:0:1 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=3 --dim C=100003 --input x=random:0:1 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=2 --dim C=16383 --input x=random:0:1 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=sums --dim R=4 --dim C=70000 --input x=random:0:1 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=extremes --dim R=2 --dim C=65537 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=halves --dim R=1 --dim C=70001 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=ramps --dim R=3 --dim C=70001 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=ramps --dim R=2 --dim C=1003 --block-elements=64 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=1 --dim C=200001 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=3 --dim C=65536 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=layernorm --dim R=2 --dim C=99999 --check | FileCheck %s
// Blocks of 64 elements give the same plans at small shapes: 17 chunks of
// 1003 columns, the last of 43.
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=3 --dim C=1003 --block-elements=64 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=layernorm --dim R=1 --dim C=1003 --block-elements=64 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=halves --dim R=2 --dim C=1003 --block-elements=64 --check | FileCheck %s
// RUN: %xstitch-run %s --function=sums --dim R=1 --dim C=65536 --explain | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-run %s --function=softmax --dim R=1 --dim C=200001 --explain | FileCheck %s --check-prefix=SOFTMAX
// CHECK-NOT: fail
// CHECK: pass
// CHECK-NOT: fail
// PLAN: variant 0 when R < 4 and 4*C >= 65536  <- this run: grid R*((4*C + 16383)/16384) [16] blocks of {{[0-9]+}} lanes, 2 phases
// PLAN: dominant %s = reduce_sum at {{.*}}; row-partial R x 4*C, 16384 columns per block
// PLAN: dominant %s = reduce_sum at {{.*}}; row-combine R x (4*C + 16383)/16384
// PLAN: buffer %s: global partials (f64)
// SOFTMAX: <- this run: grid R*((C + 16383)/16384) [13] blocks of {{[0-9]+}} lanes, 6 phases
// SOFTMAX: group 2 (phase 4): dominant %5 = reciprocal at {{.*}}; elementwise R x 1
// SOFTMAX: group 3 (phase 5): dominant %7 = mul at {{.*}}; elementwise R x C, 16384 columns per block
func @sums(%x: f32[R, 4, C]) -> (s: f32[R], d: f64[R]) {
  %s = reduce_sum %x {dims = [1, 2]}
  %xd = cast %x {to = f64}
  %d = reduce_sum %xd {dims = [1, 2]}
  return %s, %d
}

func @extremes(%x: f32[R, C]) -> (mx: f32[R], mn: f32[R]) {
  %mx = reduce_max %x {dims = [1]}
  %mn = reduce_min %x {dims = [1]}
  return %mx, %mn
}

// Random values plus or minus the column index: each extreme lies in the
// first or the last chunk of its row, so a chunk left out or combined into
// the wrong row changes it by more than the tolerance.
func @ramps(%x: f32[R, C]) -> (hi: f32[R], lo: f32[R], first: f32[R]) {
  %i = iota {dim = 1} : f32[R, C]
  %up = add %x, %i
  %down = sub %x, %i
  %hi = reduce_max %up {dims = [1]}
  %lo = reduce_min %up {dims = [1]}
  %first = reduce_max %down {dims = [1]}
  return %hi, %lo, %first
}

// Half-precision states are computed and kept in f32, sums in f64.
func @halves(%x: f16[R, C], %y: bf16[R, C]) -> (mx: f16[R], mn: bf16[R], s: f32[R]) {
  %mx = reduce_max %x {dims = [1]}
  %mn = reduce_min %y {dims = [1]}
  %xf = cast %x {to = f32}
  %s = reduce_sum %xf {dims = [1]}
  return %mx, %mn, %s
}

func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}

func @layernorm(%x: f32[R, C], %gamma: f32[C], %beta: f32[C]) -> (y: f32[R, C]) {
  %y = layer_norm %x, %gamma, %beta {epsilon = 1.0e-05}
  return %y
}
