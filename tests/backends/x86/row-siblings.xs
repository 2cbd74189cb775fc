// Sibling row reductions (same stage, same rows, operands of one type) share
// one pass over their rows: one column loop carries every sibling's state.
// Against the reference interpreter with rows of odd lengths, a sibling that
// keeps its operand's tile for a later group, and siblings of different
// element types, which keep loops of their own.
// RUN: %xstitch-run --random-inputs %s --function=siblings --dim R=37 --dim C=1001 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=siblings --dim R=1 --dim C=3 --check | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=mixed --dim R=5 --dim C=999 --check | FileCheck %s
// RUN: %xstitch-run %s --function=siblings --dim R=4 --dim C=64 --emit=llvm-unopt | FileCheck %s --check-prefix=IR
// CHECK-NOT: fail
// CHECK: pass
// CHECK-NOT: fail
// Variant 1 (rows not split; how many variants follow it depends on the
// host's caches): the max and the two sums share one column loop, the
// normalization has its own: two column loops, not four.
// IR-LABEL: define {{.*}}@k0_sub.v1(
// IR: {{^}}col.body:
// IR: {{^}}col.body{{[0-9]+}}:
// IR-NOT: {{^}}col.body
// IR: {{^(define|attributes) }}
func @siblings(%x: f32[R, C], %w: f32[C]) -> (y: f32[R, C], m: f32[R]) {
  %m = reduce_max %x {dims = [1]}
  %wb = broadcast %w {dims = [1]} : f32[R, C]
  %xw = mul %x, %wb
  %e = exp %xw
  %s1 = reduce_sum %e {dims = [1]}
  %t = tanh %x
  %s2 = reduce_sum %t {dims = [1]}
  %s = add %s1, %s2
  %sb = broadcast %s {dims = [0]} : f32[R, C]
  %mb = broadcast %m {dims = [0]} : f32[R, C]
  %d = div %e, %sb
  %y = sub %d, %mb
  return %y, %m
}

func @mixed(%x: f32[R, C]) -> (a: f32[R], b: f64[R]) {
  %a = reduce_sum %x {dims = [1]}
  %xd = cast %x {to = f64}
  %b = reduce_max %xd {dims = [1]}
  return %a, %b
}

// Column partials of one stage (a split column sum and max of the same rows)
// share their pass too, each into partials of its own.
// RUN: %xstitch-run --random-inputs %s --function=columns --dim R=1500 --dim C=77 --check | FileCheck %s
// RUN: %xstitch-run %s --function=columns --dim R=1500 --dim C=77 --emit=llvm-unopt | FileCheck %s --check-prefix=COLS
// The partials' phase: one column loop for both partials' whole row groups,
// one for the ragged rows, one for %z (three, where separate passes take five).
// COLS-LABEL: define {{.*}}@k0_add.v0(
// COLS-COUNT-3: {{^}}col.body{{[0-9]*}}:
// COLS-NOT: {{^}}col.body
// COLS: define {{.*}}@k0_add.v0.p1(
func @columns(%x: f32[R, C], %y: f32[R, C]) -> (s: f32[C], m: f32[C], z: f32[R, C]) {
  %s = reduce_sum %x {dims = [0]}
  %m = reduce_max %y {dims = [0]}
  %z = add %x, %y
  return %s, %m, %z
}
