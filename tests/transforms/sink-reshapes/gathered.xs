// RUN: %xstitch-opt %s --passes=shape-inference,sink-reshapes,dce | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=3 --dim W=7 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: FAIL
// PASS: check y: pass

// A reshape a gather reads stays where element-wise ops read it too: a
// resize's rows, written as its two phases' rows concatenated and reshaped,
// read at shifted taps along the row and in place. The planner keeps the
// gathered value in a block's buffer; moved below the multiply, the reshape
// would have it read its source again, in the other layout.
// CHECK-LABEL: func @gathered
// CHECK:      %rows = reshape %phases : f32[2*R, W]
// CHECK:      %centre = mul %rows, %{{[0-9a-z]+}} : f32[2*R, W]
// CHECK-NOT:  mul %phases
func @gathered(%a: f32[R, W], %b: f32[R, W]) -> (y: f32[2*R, W]) {
  %sa = add %a, %b
  %sb = sub %a, %b
  %ra = reshape %sa : f32[R, 1, W]
  %rb = reshape %sb : f32[R, 1, W]
  %phases = concat %ra, %rb {dim = 1} : f32[R, 2, W]
  %rows = reshape %phases : f32[2*R, W]
  %i = iota {dim = 0} : i64[W]
  %one = constant {value = 1} : i64[W]
  %zero = constant {value = 0} : i64[W]
  %shifted = sub %i, %one
  %left = max %shifted, %zero
  %tap = gather %rows, %left {dim = 1}
  %weight = constant {value = 0.75} : f32[2*R, W]
  %centre = mul %rows, %weight
  %y = add %tap, %centre
  return %y
}
