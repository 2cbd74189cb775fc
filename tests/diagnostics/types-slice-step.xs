// A slice step beyond 2^31: its extent ceil((limit - start) / step) would
// overflow int64 with the constant part of the dims.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f(%x: f32[N + 16]) -> (y) {
  // CHECK: [[@LINE+1]]:3: error: slice: step 9223372036854775807 of dim 0 is beyond 2^31; a step as long as the dim takes one element
  %y = slice %x {start = [0], limit = [N + 16], step = [9223372036854775807]}
  return %y
}
