// A last dim that interleaves K values, reshape(concat(x_0, ..., x_{K-1}))
// from [..., W, K] to [..., W*K] (a resize by a whole factor, as the ONNX
// importer writes it), is walked by the operands' column j: each step
// stores columns j*K + k, and the vectorizer interleaves K vectors of
// consecutive reads with shuffles. Walked by the output's columns, each
// operand's column j = c / K was a gather (a 2x bilinear upsample ran at
// 0.2 of the memory floor that way).
// RUN: %xstitch-run %s --function=bilinear --emit=llvm-unopt --cpu=znver4 | FileCheck %s --check-prefix=WALK
// RUN: %xstitch-run %s --function=bilinear --emit=llvm --cpu=znver4 | FileCheck %s --check-prefix=WIDE
// RUN: %xstitch-run %s --function=bilinear --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=NARROW
// RUN: %xstitch-run --random-inputs %s --function=bilinear --dim R=7 --dim W=300 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=bilinear --dim R=2 --dim W=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=bilinear --dim R=3 --dim W=0 --check | FileCheck %s --check-prefix=CHECKED
// Blocks of a strip of columns (a strip is a whole number of steps).
// RUN: %xstitch-run --random-inputs %s --function=bilinear --dim R=3 --dim W=301 --block-elements=64 --check | FileCheck %s --check-prefix=CHECKED
// Three values, sixteen-bit floats, and a second output computed from the
// interleave (stored at the same columns, through the element generator).
// RUN: %xstitch-run --random-inputs %s --function=thirds --dim R=5 --dim W=77 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=thirds --dim R=5 --dim W=77 --block-elements=64 --check | FileCheck %s --check-prefix=CHECKED
// Streamed, a 16-bit interleave stores two registers at once, each hidden
// from instruction selection on its own (StreamingStores.cpp).
// RUN: %xstitch-run --random-inputs %s --function=half --dim R=4 --dim W=131 --streaming-stores=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=half --dim R=4 --dim W=131 --streaming-stores=1 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=half --emit=llvm --cpu=znver4 | FileCheck %s --check-prefix=HALF
// RUN: %xstitch-run --random-inputs %s --function=two_outputs --dim R=4 --dim W=67 --check | FileCheck %s --check-prefix=TWO
// A nearest resize: the last dim a broadcast of a unit dim, the same element
// stored K times.
// RUN: %xstitch-run %s --function=nearest --emit=llvm --cpu=znver4 | FileCheck %s --check-prefix=NEAREST
// RUN: %xstitch-run --random-inputs %s --function=nearest --dim R=6 --dim W=129 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=nearest --dim R=6 --dim W=129 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED
// GPUs keep the output's columns (the lanes split them).
// RUN: %xstitch-run --random-inputs %s --function=bilinear --dim R=3 --dim W=45 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED

// The loop steps over the operands' columns and stores two columns a step.
// WALK: define void @k0_{{.*}}
// WALK: %[[FIRST:[0-9]+]] = mul nuw nsw i64 %col.i, 2
// WALK: store float {{.*}}
// WALK: add nuw nsw i64 %[[FIRST]], 1
// WALK: store float {{.*}}
// WIDE: shufflevector <16 x float> %{{[0-9]+}}, <16 x float> %{{[0-9]+}}, <32 x i32> <i32 0, i32 16, i32 1, i32 17,
// NARROW: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <16 x i32> <i32 0, i32 8, i32 1, i32 9,
// HALF: call <32 x i16> asm "", "=v,0"(<32 x i16>
// HALF: store <64 x i16> {{.*}} !nontemporal
// The variant of whole rows (strips of 16384 columns are not steps of 3):
// NEAREST: define void @k0_reshape.v1(
// NEAREST-NOT: masked.gather
// NEAREST: shufflevector <16 x float> %{{[0-9]+}}, <16 x float> poison, <48 x i32> <i32 0, i32 0, i32 0, i32 1,
// CHECKED: check y: pass
// TWO: check y: pass
// TWO: check z: pass

// Rows of W resized to 2*W with half-pixel centres: even columns
// .25 x[j - 1] + .75 x[j], odd ones .75 x[j] + .25 x[j + 1], clamped.
func @bilinear(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[R, 2*W]) {
  %rows = add %a, %b
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
  %near = constant {value = 0.75} : f32[R, W]
  %far = constant {value = 0.25} : f32[R, W]
  %centre = mul %rows, %near
  %wl = mul %left, %far
  %wr = mul %right, %far
  %even = add %wl, %centre
  %odd = add %centre, %wr
  %e1 = reshape %even : f32[R, W, 1]
  %o1 = reshape %odd : f32[R, W, 1]
  %pairs = concat %e1, %o1 {dim = 2} : f32[R, W, 2]
  %y = reshape %pairs : f32[R, 2*W]
  return %y
}

// Three values a column.
func @thirds(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[R, 3*W]) {
  %s = add %a, %b
  %d = sub %a, %b
  %p = mul %a, %b
  %s1 = reshape %s : f32[R, W, 1]
  %d1 = reshape %d : f32[R, W, 1]
  %p1 = reshape %p : f32[R, W, 1]
  %t = concat %s1, %d1, %p1 {dim = 2} : f32[R, W, 3]
  %y = reshape %t : f32[R, 3*W]
  return %y
}

// Stored as f16, computed in f32.
func @half(%a: f16[R, W], %b: f16[R, W]) -> (y: f16[R, 2*W]) {
  %s = add %a, %b
  %d = sub %a, %b
  %s1 = reshape %s : f16[R, W, 1]
  %d1 = reshape %d : f16[R, W, 1]
  %t = concat %s1, %d1 {dim = 2} : f16[R, W, 2]
  %y = reshape %t : f16[R, 2*W]
  return %y
}

// The interleave and a value computed from it, both results.
func @two_outputs(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[R, 2*W], z: f32[R, 2*W]) {
  %s1 = reshape %a : f32[R, W, 1]
  %d1 = reshape %b : f32[R, W, 1]
  %t = concat %s1, %d1 {dim = 2} : f32[R, W, 2]
  %y = reshape %t : f32[R, 2*W]
  %z = exp %y
  return %y, %z
}

// Rows of W resized to 3*W by repeating each element (nearest), as the
// importer writes it: a broadcast of a unit last dim, reshaped.
func @nearest(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[R, 3*W]) {
  %s = add %a, %b
  %s1 = reshape %s : f32[R, W, 1]
  %t = broadcast %s1 {dims = [0, 1, 2]} : f32[R, W, 3]
  %y = reshape %t : f32[R, 3*W]
  return %y
}
