// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=viewed --dim N=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=merged --dim N=5 --dim W=7 --check | FileCheck %s --check-prefix=MERGED

// Reshapes of buffers are aliases (of the buffer owning the memory); a
// returned reshape of a value a kernel computes is a view of the result's
// buffer, which the kernel writes in place (no copy kernel).
// CHECK-LABEL: kernel @k0_exp(%r2: f32[B, 768*S]) -> (%e: f32[B, 768*S]) bytes 6144*B*S {
// CHECK-NEXT:   %e = exp %r2 : f32[B, 768*S]
// CHECK-NEXT:   variant 0 when 768*S <= 64 grid (B + 3)/4:
// CHECK-NEXT:     group 0 dominant %e: elementwise rows B cols 768*S rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((B + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when B < 4 and 768*S > 16384 grid B*((768*S + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %e: elementwise rows B cols 768*S rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B*((768*S + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid B:
// CHECK-NEXT:     group 0 dominant %e: elementwise rows B cols 768*S rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (B + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-NOT: kernel @k1
// CHECK-LABEL: host @alias {
// CHECK-NEXT:   symbols: [B, S]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, 768] input 0
// CHECK-NEXT:     #1 %r: f32[B*S, 768] alias of #0
// CHECK-NEXT:     #2 %r2: f32[B, 768*S] alias of #0
// CHECK-NEXT:     #3 %e: f32[B, 768*S] output 0
// CHECK-NEXT:     #4 %y: f32[B*S, 768] alias of #3
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: alias #0, #1 ops [%r = reshape]
// CHECK-NEXT:     1: alias #1, #2 ops [%r2 = reshape]
// CHECK-NEXT:     2: launch k0_exp(#2, #3) ops [%e = exp] bytes 6144*B*S
// CHECK-NEXT:       k0_exp.v0 when 768*S <= 64 grid (B + 3)/4 blocks/task ((B + 3)/4 + 7)/8
// CHECK-NEXT:       k0_exp.v1 when B < 4 and 768*S > 16384 grid B*((768*S + 16383)/16384) blocks/task (B*((768*S + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_exp.v2 when (none) grid B blocks/task (B + 7)/8
// CHECK-NEXT:     3: alias #3, #4 ops [%y = reshape]
// CHECK-NEXT:   outputs: [#4]
// CHECK-NEXT: }
func @alias(%x: f32[B, S, 768]) -> (y: f32[B*S, 768]) {
  %r = reshape %x : f32[B*S, 768]
  %r2 = reshape %r : f32[B, S*768]
  %e = exp %r2
  %y = reshape %e : f32[B*S, 768]
  return %y
}

// Every output is a fresh buffer: a value returned twice and a
// parameter returned are copied by kernels of their own.
// CHECK-LABEL: kernel @k0_neg(%x: f32[N, 4]) -> (%n: f32[N, 4]) bytes 32*N {
// CHECK-NEXT:   %n = neg %x : f32[N, 4]
// CHECK-NEXT:   variant 0 when (none) grid (N + 63)/64:
// CHECK-NEXT:     group 0 dominant %n: elementwise rows N cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k1_reshape(%n: f32[N, 4]) -> (%b: f32[N, 4]) bytes 32*N {
// CHECK-NEXT:   %b = reshape %n : f32[N, 4]
// CHECK-NEXT:   variant 0 when (none) grid (N + 63)/64:
// CHECK-NEXT:     group 0 dominant %b: elementwise rows N cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k2_reshape(%x: f32[N, 4]) -> (%x_copy: f32[N, 4]) bytes 32*N {
// CHECK-NEXT:   %x_copy = reshape %x : f32[N, 4]
// CHECK-NEXT:   code of @k1_reshape
// CHECK-NEXT:   variant 0 when (none) grid (N + 63)/64:
// CHECK-NEXT:     group 0 dominant %x_copy: elementwise rows N cols 4 rows/block 64 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((N + 63)/64 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @returned {
// CHECK-NEXT:   symbols: [N]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[N, 4] input 0
// CHECK-NEXT:     #1 %n: f32[N, 4] output 0
// CHECK-NEXT:     #2 %b: f32[N, 4] output 1
// CHECK-NEXT:     #3 %x_copy: f32[N, 4] output 2
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_neg(#0, #1) ops [%n = neg] bytes 32*N
// CHECK-NEXT:       k0_neg.v0 when (none) grid (N + 63)/64 blocks/task ((N + 63)/64 + 7)/8
// CHECK-NEXT:     1: launch k1_reshape(#1, #2) ops [%b = copy %n] bytes 32*N
// CHECK-NEXT:       k1_reshape.v0 when (none) grid (N + 63)/64 blocks/task ((N + 63)/64 + 7)/8
// CHECK-NEXT:     2: launch k2_reshape(#0, #3) ops [%x_copy = copy %x] bytes 32*N
// CHECK-NEXT:       k1_reshape.v0 when (none) grid (N + 63)/64 blocks/task ((N + 63)/64 + 7)/8
// CHECK-NEXT:   outputs: [#1, #2, #3]
// CHECK-NEXT: }
func @returned(%x: f32[N, 4]) -> (a: f32[N, 4], b: f32[N, 4], x: f32[N, 4]) {
  %n = neg %x
  return %n, %n, %x
}

// One returned reshape of a computed value is its view when it splits the
// value's rows (the kernel's rows are as long); a second reshape of the same
// value and a reshape of a parameter are copies.
// CHECK-LABEL: host @viewed {
// CHECK:     #1 %n: f32[N, 4] output 0
// CHECK-NEXT:     #2 %a: f32[N, 2, 2] alias of #1
// CHECK-NEXT:     #3 %b: f32[4, N] output 1
// CHECK-NEXT:     #4 %p: f32[4*N] output 2
// CHECK:     1: alias #1, #2 ops [%a = reshape]
// CHECK-NEXT:     2: launch k1_reshape(#1, #3) ops [%b = reshape]
// CHECK:     3: launch k2_reshape(#0, #4) ops [%p = reshape]
// CHECK:   outputs: [#2, #3, #4]
// RESULT: check a: pass
// RESULT-NEXT: check b: pass
// RESULT-NEXT: check p: pass
func @viewed(%x: f32[N, 4]) -> (a: f32[N, 2, 2], b: f32[4, N], p: f32[4*N]) {
  %n = neg %x
  %a = reshape %n : f32[N, 2, 2]
  %b = reshape %n : f32[4, N]
  %p = reshape %x : f32[4*N]
  return %a, %b, %p
}

// A reshape that merges the value's rows into longer ones (a nearest
// upsample's [.., W, 2] into [.., 2*W]) is computed by the kernel itself,
// which then walks the result's rows, not rows of 2.
// CHECK-LABEL: host @merged {
// CHECK:     #1 %b: f32[N, W, 2] temporary slot 0
// CHECK-NEXT:     #2 %m: f32[N, 2*W] output 0
// CHECK:     1: launch k1_reshape(#1, #2) ops [%m = reshape]
// CHECK:   outputs: [#2]
// MERGED: check m: pass
func @merged(%x: f32[N, W]) -> (m: f32[N, 2*W]) {
  %b = broadcast %x {dims = [0, 1]} : f32[N, W, 2]
  %m = reshape %b : f32[N, 2*W]
  return %m
}
