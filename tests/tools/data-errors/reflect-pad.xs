// Reflect padding as wide as the dim is refused when the dims are bound, as
// the reference interpreter refuses it, before any kernel runs.
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --dim N=3 2>&1 | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim N=4 --check 2>&1 | FileCheck %s --check-prefix=WIDE
// CHECK: error: @f: %y = pad in kernel {{.*}}: reflect padding of dim 0 by 3 needs the dim's size above it, but it is 3
// WIDE: check y: pass
func @f(%x: f32[N]) -> (y: f32[N + 6]) {
  %y = pad %x {low = [3], high = [3], mode = reflect}
  return %y
}
