// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) host_symbols H, G {
      %n = dim_value {dims = [N]} : i64[]
// CHECK: [[@LINE+1]]:7: error: 'return' gives 1 value but host_symbols names 2 symbols
      return %n
    } {
  %y = iota {dim = 0} : f32[H]
  return %y
}
