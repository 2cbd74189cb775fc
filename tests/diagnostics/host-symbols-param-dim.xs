// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s
// CHECK: [[@LINE+1]]:41: error: host symbol N is a dim of a parameter; its value comes from that input's shape
func @f(%x: f32[N]) -> (y) host_symbols N {
      %n = dim_value {dims = [N]} : i64[]
      return %n
    } {
  %y = neg %x
  return %y
}
