// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim N=37 --input x=random:0:1 --input w=random:0:1 --input v=random:0:1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run %s --dim N=37 --explain | FileCheck %s --check-prefix=EXPLAIN

// Kernels whose plans are the same but for value names compile once: the
// second runs the first one's code (its launch names the first kernel's
// symbols). Kernels that differ in one constant keep code of their own.
func @shared(%x: f32[N, 64], %w: f32[64, 64], %v: f32[64, 64]) -> (c) {
  %xe = tanh %x
  %xn = neg %xe
  %y = dot %xn, %w
  %ye = tanh %y
  %yn = neg %ye
  %z = dot %yn, %v
  %two = constant {value = 2.0} : f32[N, 64]
  %z2 = mul %z, %two
  %zn = neg %z2
  %b = dot %zn, %w
  %three = constant {value = 3.0} : f32[N, 64]
  %b3 = mul %b, %three
  %c = neg %b3
  return %c
}

// CHECK-LABEL: kernel @k0_neg(%x: f32[N, 64]) -> (%xn: f32[N, 64])
// CHECK-NOT:   code of
// CHECK-LABEL: kernel @k1_neg(%y: f32[N, 64]) -> (%yn: f32[N, 64])
// CHECK-NEXT:    %ye = tanh %y : f32[N, 64]
// CHECK-NEXT:    %yn = neg %ye : f32[N, 64]
// CHECK-NEXT:    code of @k0_neg
// CHECK-LABEL: kernel @k2_neg(
// CHECK-NOT:   code of
// CHECK-LABEL: kernel @k3_neg(
// CHECK-NOT:   code of
// CHECK-LABEL: host @shared
// CHECK:       launch k0_neg(
// CHECK-NEXT:    k0_neg.v0 when
// CHECK:       launch k1_neg(
// CHECK-NEXT:    k0_neg.v0 when
// CHECK:       launch k2_neg(
// CHECK-NEXT:    k2_neg.v0 when
// CHECK:       launch k3_neg(
// CHECK-NEXT:    k3_neg.v0 when

// RESULT-NOT: fail
// RESULT: check c: pass
// EXPLAIN-LABEL: kernel k1_neg
// EXPLAIN-NEXT: runs the code of k0_neg (the same plan but for names)
