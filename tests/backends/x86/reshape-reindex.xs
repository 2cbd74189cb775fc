// A reshape's operand is read at an index found from the result's index
// dim by dim (ElementGenerator::reindex): a target dim that is a product of
// the innermost dims left, or such a product times a divisor of the next dim
// out, takes their ravel and that dim's index modulo the divisor, with no
// division of the innermost (vectorized) index. GroupNorm as PyTorch exports
// it normalizes [B, 4, 4*H*W] and reads that through [B, 16, H, W] for its
// per-channel weight (through [B, 16, H*W] once collapse-dims merges H and
// W): the group is c / 4, once a row, where unravelling each element's
// row-major position divided every lane's position by 4*H*W (a vector of
// 64-bit divisions and two gathers of the group's statistics; 4 times
// slower).
// RUN: %xstitch-run %s --function=groups --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=GROUPS
// RUN: %xstitch-run --random-inputs %s --function=groups --dim B=2 --dim H=3 --dim W=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=groups --dim B=1 --dim H=1 --dim W=1 --check | FileCheck %s --check-prefix=RESULT
// Heads split from a row and merged back, and shapes whose dims do not
// divide (linearized and unravelled as before).
// RUN: %xstitch-run --random-inputs %s --function=heads --dim N=3 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=uneven --dim R=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=symbolic --dim A=3 --dim C=4 --check | FileCheck %s --check-prefix=RESULT

func @groups(%x: f32[B, 16, H, W], %s: f32[B, 4], %w: f32[16]) -> (y) {
  %r = reshape %x : f32[B, 4, 4*H*W]
  %sb = broadcast %s {dims = [0, 1]} : f32[B, 4, 4*H*W]
  %m = mul %r, %sb
  %n = reshape %m : f32[B, 16, H, W]
  %wb = broadcast %w {dims = [1]} : f32[B, 16, H, W]
  %y = mul %n, %wb
  return %y
}
// GROUPS-LABEL: define void @k0_mul.v0(
// GROUPS-NOT: udiv <
// GROUPS-NOT: urem <
// GROUPS-NOT: gather
// GROUPS: load <16 x float>
// GROUPS-NOT: gather
// GROUPS: ret void

func @heads(%x: f32[N, 768], %b: f32[12, 64]) -> (y) {
  %h = reshape %x : f32[N, 12, 64]
  %bb = broadcast %b {dims = [1, 2]} : f32[N, 12, 64]
  %s = add %h, %bb
  %e = exp %s
  %y = reshape %e : f32[N, 768]
  return %y
}

func @uneven(%x: f32[R, 6, 10]) -> (y) {
  %r = reshape %x : f32[R, 4, 15]
  %e = exp %r
  %y = reshape %e : f32[R, 3, 20]
  return %y
}

func @symbolic(%x: f32[A, 6, C]) -> (y) {
  %r = reshape %x : f32[A, 2, 3*C]
  %e = exp %r
  %y = reshape %e : f32[A, 3, 2*C]
  return %y
}
// RESULT-NOT: fail
// RESULT: check y: pass
