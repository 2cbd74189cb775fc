// Facts over symbols that only the where clause names print the same however
// they were written, so printing is a fixpoint (found by the parser fuzzer).
// RUN: %xstitch-opt %s > %t.1.xs
// RUN: %xstitch-opt %t.1.xs > %t.2.xs
// RUN: diff %t.1.xs %t.2.xs
// RUN: FileCheck %s < %t.1.xs
// CHECK: where N == 4, bM == -G5 {
// CHECK: where N == 4, bM == -G5 {

func @f(%a: f32[N], %b: f32[M]) -> (y) where N == 4, G5 == -bM {
  %y = mul %a, %b
  return %y
}

func @g(%a: f32[N], %b: f32[M]) -> (y) where N == 4, bM == -G5 {
  %y = mul %a, %b
  return %y
}
