// host_symbols prints between the results and the `where` clause and reads
// back to the same text. Shape inference spells the computation's dims like
// the parameters' (M becomes N here), and a fact between a parameter's dim and
// host symbols stays a fact to check: N is never defined as R0*R1, since the
// host symbols are computed only once the parameters' dims are bound.
// RUN: %xstitch-opt %s > %t && %xstitch-opt %t | diff %t -
// RUN: %xstitch-opt %s --passes=shape-inference > %t.inferred && %xstitch-opt %t.inferred | diff %t.inferred -
// RUN: FileCheck %s < %t.inferred

// CHECK-LABEL: func @f(%x: f32[N], %a: f32[N], %shape: i64[2]) -> (y: f32[R0, R1])
// CHECK-NEXT:     host_symbols R0, R1 {
// CHECK-NEXT:       %s0 = slice %shape {limit = [1], start = [0]} : i64[1]
// CHECK:            %m = dim_value {dims = [N]} : i64[]
// CHECK:            return %r0, %q
// CHECK-NEXT:     }
// CHECK-NEXT:     where N == M, N == R0*R1 {
// CHECK-NEXT:   %s = add %x, %a : f32[N]
// CHECK-NEXT:   %y = reshape %s : f32[R0, R1]
func @f(%x: f32[N], %a: f32[M], %shape: i64[2]) -> (y)
    host_symbols R0, R1 {
      %s0 = slice %shape {limit = [1], start = [0]} : i64[1]
      %r0 = reshape %s0 : i64[]
      %s1 = slice %shape {limit = [2], start = [1]} : i64[1]
      %r1 = reshape %s1 : i64[]
      %m = dim_value {dims = [M]} : i64[]
      %q = add %r1, %m : i64[]
      return %r0, %q
    } {
  %s = add %x, %a
  %y = reshape %s : f32[R0, R1]
  return %y
}
