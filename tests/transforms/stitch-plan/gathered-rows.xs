// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=37 --dim W=5 --input i0=random:-3:12 --input i1=random:-3:12 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=3 --dim W=200 --input i0=random:-3:402 --input i1=random:-3:402 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=2 --dim W=17000 --input i0=random:-3:34002 --input i1=random:-3:34002 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=3 --dim W=70 --input i0=random:-3:142 --input i1=random:-3:142 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: fail
// CHECKED: check y: pass

// A bilinear resize's second axis as exporters write it: rows interpolated
// along one axis (here a sum of two rows), then two gathers along the rows
// at clamped taps and their weighted sum. The interpolated row is computed
// once per row into the block's buffer (its operands read with vector
// loads) and gathered from there (Regional, one phase) where a row fits the
// buffer: whole blocks of 4 rows for short rows (2*W <= 64 bounds W by 32),
// one row otherwise (W <= 16384); only past that bound does it go through
// global memory. Recomputed at each gathered column instead, every output
// element would read its operands with gathers from memory.
// CHECK-LABEL: kernel @k0_add(
// CHECK:         scratch [%rows]
// CHECK-NEXT:    variant 0 when 2*W <= 64 grid (R + 3)/4:
// CHECK-NEXT:      group 0 dominant %rows: elementwise rows R cols W rows/block 4
// CHECK-NEXT:      group 1 dominant %y ops [{{.*}}, %g0, %g1, {{.*}}]: elementwise rows R cols 2*W rows/block 4
// CHECK-NEXT:      phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT:      buffers: %rows block 4*W
// CHECK-NEXT:      edges: %rows 0->1 regional
// CHECK:         variant 2 when W <= 16384 grid R:
// CHECK:           phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT:      buffers: %rows block W
// CHECK-NEXT:      edges: %rows 0->1 regional
// CHECK:         variant 3 when (none) grid R:
// CHECK:           buffers: %rows global R*W
// CHECK-NEXT:      edges: %rows 0->1 global
func @lerp_columns(%a: f32[R, W], %b: f32[R, W], %i0: i64[2*W], %i1: i64[2*W], %w0: f32[2*W], %w1: f32[2*W]) -> (y: f32[R, 2*W]) {
  %zero = constant {value = 0} : i64[]
  %zeros = broadcast %zero {dims = []} : i64[2*W]
  %last = dim_value {dims = [W - 1]} : i64[]
  %lasts = broadcast %last {dims = []} : i64[2*W]
  %above0 = max %i0, %zeros
  %c0 = min %above0, %lasts
  %above1 = max %i1, %zeros
  %c1 = min %above1, %lasts
  %rows = add %a, %b
  %g0 = gather %rows, %c0 {dim = 1}
  %g1 = gather %rows, %c1 {dim = 1}
  %b0 = broadcast %w0 {dims = [1]} : f32[R, 2*W]
  %b1 = broadcast %w1 {dims = [1]} : f32[R, 2*W]
  %p0 = mul %g0, %b0
  %p1 = mul %g1, %b1
  %y = add %p0, %p1
  return %y
}
