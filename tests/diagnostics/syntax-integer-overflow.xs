// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N]) -> (y) {
// CHECK: [[@LINE+1]]:20: error: integer 9223372036854775808 does not fit in 64 bits
  %y = iota {dim = 9223372036854775808} : i64[N]
  return %y
}
