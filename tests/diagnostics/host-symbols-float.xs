// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:41: error: host symbol H is given '%m' of type f32[]; it needs a rank-0 integer
func @f(%x: f32[N]) -> (y) host_symbols H {
      %n = dim_value {dims = [N]} : f32[]
      %k = constant {value = 0.5} : f32[]
      %m = mul %n, %k : f32[]
      return %m
    } {
  %y = iota {dim = 0} : f32[H]
  return %y
}
