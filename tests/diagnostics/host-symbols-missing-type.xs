// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) host_symbols H {
      %n = dim_value {dims = [N]} : i64[]
// CHECK: [[@LINE+1]]:7: error: an op in host_symbols needs its result type, e.g. ': i64[]'
      %m = add %n, %n
      return %m
    } {
  %y = iota {dim = 0} : f32[H]
  return %y
}
