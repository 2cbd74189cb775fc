// Every kernel carries its launch bounds: the lanes of the blocks it runs in
// (HostLaunchVariant::lanes) as `.reqntid`, so ptxas budgets registers for
// that many threads and the code takes the count as a constant (it reads no
// %ntid). Rows of 768: blocks of three warps.
// RUN: %xstitch-run %s --emit=ptx --target=sm_90 --dim R=64 | FileCheck %s
// RUN: %xstitch-run %s --explain --target=sm_90 --dim R=64 | FileCheck %s --check-prefix=PLAN
// CHECK: .entry k0_{{.*}}(
// CHECK: .reqntid 96, 1, 1
// CHECK-NOT: %ntid
// PLAN: blocks of 96 lanes
func @f(%x: f32[R, 768]) -> (y: f32[R]) {
  %y = reduce_sum %x {dims = [1]}
  return %y
}
