// Gathers from a block buffer whose lanes read a short window (a resize's
// taps along a row the block computed) are a masked load of the window and
// a permute when the lanes' indices stay within a vector's width of the
// first lane's; else the gather as it was (WindowedGathersPass).
// RUN: %xstitch-run %s --function=upsample --emit=llvm --cpu=znver4 | FileCheck %s
// RUN: %xstitch-run %s --function=picks --emit=llvm --cpu=znver4 | FileCheck %s
// Taps that rise by half a lane (the window path), taps in a row of a few
// elements, and random taps (the gather), checked against the interpreter
// on this machine's CPU.
// RUN: %xstitch-run --random-inputs %s --function=upsample --dim R=7 --dim W=300 --check | FileCheck %s --check-prefix=CHECKED
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
