// A host symbols' computation may use a host symbol only once an op before
// it has computed it (H here), not before (G).
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y, z) host_symbols H, G {
      %n = dim_value {dims = [N]} : i64[]
      %h = dim_value {dims = [H]} : i64[]
// CHECK: [[@LINE+1]]:7: error: the host symbols' computation uses symbol G before it is computed; it may use the dims of the parameters of @f and host symbols returned by ops before it
      %g = dim_value {dims = [G]} : i64[]
      return %n, %g
    } {
  %y = iota {dim = 0} : f32[H]
  %z = iota {dim = 0} : f32[G]
  return %y, %z
}
