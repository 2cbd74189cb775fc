// Indices out of range, positive or negative: an error naming the op, the
// index and the dim's valid range, on the CPU and in the NVIDIA simulation
// (the kernels used to clamp them: [0, 5, -7, 2] on f32[3] gave
// [1, 3, 1, 3]). In range, negative indices count from the end.
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --function=f --input s=random:1:2 2>&1 | FileCheck %s
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --function=f --input s=random:1:2 --device=nvptx-sim 2>&1 | FileCheck %s
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --function=f --input s=random:1:2 --check 2>&1 | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --input s=random:1:2 --function=inside --check 2>&1 | FileCheck %s --check-prefix=INSIDE
// CHECK: error: @f: %y = gather in kernel {{.*}}: index {{-7|5}} is out of range for a dim of size 3 (valid: -3 to 2)
// CHECKED: check: both refuse the inputs; the reference interpreter: {{.*}}out of range for a dim of size 3
// INSIDE: check y: pass
func @f(%s: i64[]) -> (y: f32[4]) {
  %x = constant {value = dense<[1.0, 2.0, 3.0]>} : f32[3]
  %i = constant {value = dense<[0, 5, -7, 2]>} : i64[4]
  %sb = broadcast %s {dims = []} : i64[4]
  %is = mul %i, %sb
  %y = gather %x, %is {dim = 0}
  return %y
}

func @inside(%s: i64[]) -> (y: f32[4]) {
  %x = constant {value = dense<[1.0, 2.0, 3.0]>} : f32[3]
  %i = constant {value = dense<[0, -1, -3, 2]>} : i64[4]
  %sb = broadcast %s {dims = []} : i64[4]
  %is = mul %i, %sb
  %y = gather %x, %is {dim = 0}
  return %y
}

// Indices the graph clamps into the dim, as a resize's taps are
// (min(max(i, 0), D - 1)), are in range unless the dim is empty: that is
// checked on the host from the dims, before any kernel runs, and the kernel
// reads them as they are.
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --function=clamped --dim D=0 --dim N=5 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %xstitch-run --random-inputs %s --function=clamped --dim D=7 --dim N=40 --input i=random:-20:20 --device=nvptx-sim --check 2>&1 | FileCheck %s --check-prefix=CLAMPED
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --function=clamped --dim D=0 --dim N=5 --check 2>&1 | FileCheck %s --check-prefix=EMPTY-CHECKED
// RUN: %xstitch-run --random-inputs %s --function=clamped --dim D=0 --dim N=0 --check 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %xstitch-run --random-inputs %s --function=clamped --dim D=7 --dim N=300 --input i=random:-20:20 --check 2>&1 | FileCheck %s --check-prefix=CLAMPED
// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan 2>&1 | FileCheck %s --check-prefix=PLAN
// EMPTY: error: @clamped: %y = gather in kernel {{.*}}: its 5 indices are clamped into dim 1, which is empty: every index is out of range at these inputs' shapes
// EMPTY-CHECKED: check: both refuse the inputs; the reference interpreter: {{.*}}out of range for a dim of size 0
// NONE: check y: pass
// CLAMPED: check y: pass
// PLAN-LABEL: host @clamped {
// PLAN:        checks:
// PLAN-NEXT:     0: %y = gather in {{.*}}: clamped indices into an empty dim (dim 1: D)
// PLAN-NEXT: }
func @clamped(%x: f32[3, D], %i: i64[N]) -> (y: f32[3, N]) {
  %zero = constant {value = 0} : i64[]
  %zeros = broadcast %zero {dims = []} : i64[N]
  %last = dim_value {dims = [D - 1]} : i64[]
  %lasts = broadcast %last {dims = []} : i64[N]
  %above = max %i, %zeros
  %c = min %above, %lasts
  %y = gather %x, %c {dim = 1}
  return %y
}
