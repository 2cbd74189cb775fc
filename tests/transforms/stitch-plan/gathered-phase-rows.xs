// RUN: %xstitch-opt %s --passes=shape-inference,sink-reshapes,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=37 --dim W=5 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=3 --dim W=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=2 --dim W=17000 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --dim R=3 --dim W=70 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: fail
// CHECKED: check y: pass

// A 2x bilinear resize with half-pixel centres, as the ONNX importer writes
// a whole factor: each output phase's rows interpolated along H, the two
// concatenated and reshaped into 2*R rows; along W the taps beside each
// column (max(i - 1, 0) and min(i + 1, W - 1)) and the column itself,
// weighted, then the two phases concatenated along a new last dim and
// reshaped into rows of 2*W. The rows are computed once per row into the
// block's buffer (through the concat and the reshapes, which keep the row
// dims) and read there at the taps and in place (Regional, one phase);
// recomputed at each output column, every element would compute both
// phases from memory.
// CHECK-LABEL: kernel @k0_reshape(
// CHECK:         scratch [%rows]
// CHECK:         variant 2 when W <= 16384 grid 2*R:
// CHECK-NEXT:      group 0 dominant %rows ops [{{.*}}%phases, %rows]: elementwise rows 2*R cols W rows/block 1
// CHECK-NEXT:      group 1 dominant %y ops [{{[^]]*}}%centre{{[^]]*}}%pairs, %y]: elementwise rows 2*R cols 2*W rows/block 1
// CHECK-NEXT:      phase 0: stage 0: groups [0]; stage 1: groups [1]
// CHECK-NEXT:      buffers: %rows block W
// CHECK-NEXT:      edges: %rows 0->1 regional
// The taps are clamped into the row: no check of theirs in the kernel, and
// on the host only that the row is not empty.
// CHECK:       checks:
// CHECK-NEXT:    0: %left = gather {{.*}}clamped indices into an empty dim (dim 1: W)
// CHECK-NEXT:    1: %right = gather {{.*}}clamped indices into an empty dim (dim 1: W)
func @halfpixel(%top: f32[R, W], %middle: f32[R, W], %bottom: f32[R, W]) -> (y: f32[2*R, 2*W]) {
  %near = constant {value = 0.75} : f32[R, W]
  %far = constant {value = 0.25} : f32[R, W]
  %m = mul %middle, %near
  %t = mul %top, %far
  %b = mul %bottom, %far
  %upper = add %t, %m
  %lower = add %m, %b
  %ru = reshape %upper : f32[R, 1, W]
  %rl = reshape %lower : f32[R, 1, W]
  %phases = concat %ru, %rl {dim = 1} : f32[R, 2, W]
  %rows = reshape %phases : f32[2*R, W]
  %i = iota {dim = 0} : i64[W]
  %one = constant {value = 1} : i64[W]
  %zero = constant {value = 0} : i64[W]
  %before = sub %i, %one
  %l = max %before, %zero
  %after = add %i, %one
  %last = dim_value {dims = [W - 1]} : i64[]
  %lasts = broadcast %last {dims = []} : i64[W]
  %r = min %after, %lasts
  %left = gather %rows, %l {dim = 1}
  %right = gather %rows, %r {dim = 1}
  %near2 = constant {value = 0.75} : f32[2*R, W]
  %far2 = constant {value = 0.25} : f32[2*R, W]
  %centre = mul %rows, %near2
  %wl = mul %left, %far2
  %wr = mul %right, %far2
  %even = add %wl, %centre
  %odd = add %centre, %wr
  %e1 = reshape %even : f32[2*R, W, 1]
  %o1 = reshape %odd : f32[2*R, W, 1]
  %pairs = concat %e1, %o1 {dim = 2} : f32[2*R, W, 2]
  %y = reshape %pairs : f32[2*R, 2*W]
  return %y
}
