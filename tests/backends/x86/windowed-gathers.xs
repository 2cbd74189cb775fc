// Gathers from a block buffer whose lanes read a short window (a resize's
// taps along a row the block computed) are a masked load of the window and
// a permute when the lanes' indices stay within a vector's width of the
// first lane's; else the gather as it was (WindowedGathersPass).
// RUN: %xstitch-run %s --function=upsample --emit=llvm --cpu=znver4 | FileCheck %s
// RUN: %xstitch-run %s --function=picks --emit=llvm --cpu=znver4 | FileCheck %s
// Taps that rise by half a lane (the window path), taps in a row of a few
// elements, and random taps (the gather), checked against the interpreter
// on this machine's CPU.
// RUN: %xstitch-run %s --function=phases --emit=llvm --cpu=znver4 | FileCheck %s --check-prefix=WIDE
// RUN: %xstitch-run --random-inputs %s --function=upsample --dim R=7 --dim W=300 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=phases --dim R=7 --dim W=300 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=phases --dim R=2 --dim W=9 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=upsample --dim R=3 --dim W=3 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=upsample --dim R=5 --dim W=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=picks --dim R=9 --dim W=100 --input i=random:0:99 --check | FileCheck %s --check-prefix=PICKS
// RUN: %xstitch-run --random-inputs %s --function=picks --dim R=9 --dim W=100 --input i=random:0:99 --cpu=x86-64-v3 --check | FileCheck %s --check-prefix=PICKS

// CHECK: %window.offsets = sub <8 x i64>
// CHECK: br i1 %windowed,
// CHECK: %window = call <8 x float> @llvm.masked.load.v8f32.p0(
// CHECK: call <8 x float> @llvm.x86.avx2.permps(<8 x float> %window,
// CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p0(
// CHECK: phi <8 x float>
// Where the vectorizer takes 16 lanes (on AVX-512), the permute is VPERMPS
// on 512 bits.
// WIDE: %window = call <16 x float> @llvm.masked.load.v16f32.p0(
// WIDE: call <16 x float> @llvm.x86.avx512.permvar.sf.512(<16 x float> %window,
// WIDE: call <16 x float> @llvm.masked.gather.v16f32.v16p0(
// CHECKED: check y: pass
// PICKS: check y: pass

// Rows of W interpolated to 2*W - 1 columns (align_corners by 2): tap j / 2
// and the next, clamped.
func @upsample(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[R, 2*W - 1]) {
  %j = iota {dim = 0} : i32[2*W - 1]
  %two = constant {value = 2} : i32[]
  %twos = broadcast %two {dims = []} : i32[2*W - 1]
  %left = div %j, %twos
  %one = constant {value = 1} : i32[]
  %ones = broadcast %one {dims = []} : i32[2*W - 1]
  %next = add %left, %ones
  %last = dim_value {dims = [W - 1]} : i32[]
  %lasts = broadcast %last {dims = []} : i32[2*W - 1]
  %right = min %next, %lasts
  %odd = rem %j, %twos
  %oddf = cast %odd {to = f32} : f32[2*W - 1]
  %half = constant {value = 0.5} : f32[]
  %halves = broadcast %half {dims = []} : f32[2*W - 1]
  %w1 = mul %oddf, %halves
  %onef = constant {value = 1.0} : f32[]
  %onesf = broadcast %onef {dims = []} : f32[2*W - 1]
  %w0 = sub %onesf, %w1
  %rows = add %a, %b
  %g0 = gather %rows, %left {dim = 1}
  %g1 = gather %rows, %right {dim = 1}
  %b0 = broadcast %w0 {dims = [1]} : f32[R, 2*W - 1]
  %b1 = broadcast %w1 {dims = [1]} : f32[R, 2*W - 1]
  %p0 = mul %g0, %b0
  %p1 = mul %g1, %b1
  %y = add %p0, %p1
  return %y
}

// Random picks from a row the block computed: the gather path.
func @picks(%a: f32[R, W], %b: f32[R, W], %i: i32[W]) -> (y: f32[R, W]) {
  %rows = add %a, %b
  %y = gather %rows, %i {dim = 1}
  return %y
}

// A 2x resize with half-pixel centres as the importer writes it
// (stitch-plan/gathered-phase-rows.xs): lanes j read the row at j / 2 and
// beside it, 16 to a vector on AVX-512.
func @phases(%top: f32[R, W], %middle: f32[R, W], %bottom: f32[R, W]) -> (y: f32[2*R, 2*W]) {
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
