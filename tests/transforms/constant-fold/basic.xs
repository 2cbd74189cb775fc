// RUN: %xstitch-opt %s --passes=shape-inference,constant-fold | FileCheck %s

// Scalars fold, and folded values feed the next fold. The operand constants
// stay (dce removes them).
// CHECK-LABEL: func @scalars
// CHECK: %[[S:[0-9a-z_.]+]] = constant {value = 5.0} : f32[]
// CHECK-NEXT: %[[P:[0-9a-z_.]+]] = constant {value = 15.0} : f32[]
// CHECK-NOT: add
// CHECK-NOT: mul
// CHECK: return %[[P]]
func @scalars() -> (r: f32[]) {
  %a = constant {value = 2.0} : f32[]
  %b = constant {value = 3.0} : f32[]
  %s = add %a, %b
  %p = mul %s, %b
  return %p
}

// Dense operands give a dense result, element by element.
// CHECK-LABEL: func @dense
// CHECK: %[[R:[0-9a-z_.]+]] = constant {value = dense<{{\[}}[11, 22], [33, 44]]>} : i32[2, 2]
// CHECK-NOT: add
// CHECK: return %[[R]]
func @dense() -> (r: i32[2, 2]) {
  %a = constant {value = dense<[[1, 2], [3, 4]]>} : i32[2, 2]
  %b = constant {value = dense<[[10, 20], [30, 40]]>} : i32[2, 2]
  %r = add %a, %b
  return %r
}

// A result whose elements are all equal becomes a splat.
// CHECK-LABEL: func @splat_result
// CHECK: %[[R:[0-9a-z_.]+]] = constant {value = 5.0} : f32[3]
// CHECK: return %[[R]]
func @splat_result() -> (r: f32[3]) {
  %a = constant {value = dense<[1.0, 2.0, 3.0]>} : f32[3]
  %b = constant {value = dense<[4.0, 3.0, 2.0]>} : f32[3]
  %r = add %a, %b
  return %r
}

// Splats of a symbolic shape fold element-wise ops and data movement into
// splats of the result type.
// CHECK-LABEL: func @symbolic_splats
// CHECK: %[[M:[0-9a-z_.]+]] = constant {value = 0.25} : f32[N]
// CHECK: %[[B:[0-9a-z_.]+]] = constant {value = 0.25} : f32[N, M]
// CHECK: %[[C:[0-9a-z_.]+]] = constant {value = 1} : i1[N, M]
// CHECK-NOT: = mul
// CHECK-NOT: = broadcast
// CHECK-NOT: = compare
// CHECK: return %[[B]], %[[C]]
func @symbolic_splats(%x: f32[N, M]) -> (r: f32[N, M], s: i1[N, M]) {
  %h = constant {value = 0.5} : f32[N]
  %m = mul %h, %h
  %b = broadcast %m {dims = [0]} : f32[N, M]
  %c = compare %b, %b {dir = eq}
  return %b, %c
}

// Reductions, transposes and comparisons of static constants fold.
// CHECK-LABEL: func @structural
// CHECK: %[[S:[0-9a-z_.]+]] = constant {value = dense<[4.0, 6.0]>} : f32[2]
// CHECK: %[[T:[0-9a-z_.]+]] = constant {value = dense<{{\[}}[1.0, 3.0], [2.0, 4.0]]>} : f32[2, 2]
// CHECK: %[[C:[0-9a-z_.]+]] = constant {value = dense<[0, 1]>} : i1[2]
// CHECK: return %[[S]], %[[T]], %[[C]]
func @structural() -> (s: f32[2], t: f32[2, 2], c: i1[2]) {
  %a = constant {value = dense<[[1.0, 2.0], [3.0, 4.0]]>} : f32[2, 2]
  %s = reduce_sum %a {dims = [0]}
  %t = transpose %a {perm = [1, 0]}
  %five = constant {value = 5.0} : f32[2]
  %c = compare %s, %five {dir = gt}
  return %s, %t, %c
}

// An empty result is any splat; f32 results are rounded to f32 as the
// interpreter reads them (0.1f + 0.2f is not the f64 0.3).
// CHECK-LABEL: func @empty_and_rounding
// CHECK: %[[E:[0-9a-z_.]+]] = constant {value = 0.0} : f32[0, 3]
// CHECK: %[[S:[0-9a-z_.]+]] = constant {value = 0.30000001192092896} : f32[]
// CHECK: return %[[E]], %[[S]]
func @empty_and_rounding() -> (e: f32[0, 3], s: f32[]) {
  %a = constant {value = 2.0} : f32[0, 3]
  %e = exp %a
  %x = constant {value = 0.1} : f32[]
  %y = constant {value = 0.2} : f32[]
  %s = add %x, %y
  return %e, %s
}
