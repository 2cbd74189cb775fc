// An integer division by zero: the reference interpreter refuses the inputs,
// and so does compiled code, on the CPU and in the NVIDIA simulation: the run
// exits 2 naming the op, never 0 with a made-up quotient. The scale %s (1 at
// run time) keeps constant folding from dividing at compile time.
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --input s=random:1:2 2>&1 | FileCheck %s
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --input s=random:1:2 --device=nvptx-sim 2>&1 | FileCheck %s
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --input s=random:1:2 --check 2>&1 | FileCheck %s --check-prefix=CHECKED
// CHECK: error: @f: %q = div in kernel {{.*}}: integer division by zero
// CHECK-NOT: result q:
// CHECKED: check: both refuse the inputs; the reference interpreter: {{.*}}integer division by zero
// CHECKED: error: @f: %q = div in kernel {{.*}}: integer division by zero
func @f(%s: i32[]) -> (q: i32[4]) {
  %a = constant {value = dense<[7, 8, 9, 10]>} : i32[4]
  %b = constant {value = dense<[1, 0, 2, 0]>} : i32[4]
  %sb = broadcast %s {dims = []} : i32[4]
  %bs = mul %b, %sb
  %q = div %a, %bs
  return %q
}
