// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) host_symbols H, G {
      %n = dim_value {dims = [N]} : i64[]
// CHECK: [[@LINE+1]]:7: error: the host symbols' computation uses symbol H, which is not a dim of a parameter of @f: it runs before any other symbol is known
      %g = dim_value {dims = [H]} : i64[]
      return %n, %g
    } {
  %y = iota {dim = 0} : f32[H]
  return %y
}
