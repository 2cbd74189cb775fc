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
