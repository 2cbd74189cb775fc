// RUN: %xstitch-opt %s --passes=shape-inference,dce | FileCheck %s

// A dead chain goes, including ops used only by other dead ops; live ops,
// unused parameters and ops used only by function results stay.
// CHECK-LABEL: func @dead_chain
// CHECK-SAME: (%a: f32[N], %unused: f32[N])
// CHECK-NEXT: %live = exp %a : f32[N]
// CHECK-NEXT: %out = add %live, %a : f32[N]
// CHECK-NEXT: return %out, %live
func @dead_chain(%a: f32[N], %unused: f32[N]) -> (r: f32[N], s: f32[N]) {
  %live = exp %a
  %d0 = neg %a
  %d1 = mul %d0, %live
  %d2 = reduce_sum %d1 {dims = [0]}
  %out = add %live, %a
  return %out, %live
}

// Dead constants and dead ops that could fail at run time go too: every op
// is pure.
// CHECK-LABEL: func @dead_sources
// CHECK-NEXT: %c = constant {value = 1} : i32[N]
// CHECK-NEXT: %q = add %a, %c : i32[N]
// CHECK-NEXT: return %q
func @dead_sources(%a: i32[N]) -> (r: i32[N]) {
  %c = constant {value = 1} : i32[N]
  %z = constant {value = 0} : i32[N]
  %i = iota {dim = 0} : i32[N]
  %bad = div %a, %z
  %q = add %a, %c
  return %q
}

// Nothing to remove: the function prints unchanged.
// CHECK-LABEL: func @all_live
// CHECK-NEXT: %x = exp %a : f32[N]
// CHECK-NEXT: %y = log %x : f32[N]
// CHECK-NEXT: return %y
func @all_live(%a: f32[N]) -> (r: f32[N]) {
  %x = exp %a
  %y = log %x
  return %y
}
