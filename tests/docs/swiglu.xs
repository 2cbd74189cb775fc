// The example of docs/ir.md, "Writing a new graph": it parses, infers and runs.
// RUN: %xstitch-opt %s --passes=shape-inference | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim T=7 --check | FileCheck %s --check-prefix=RESULT

// CHECK: %s = sigmoid %g : f32[T, 11008]
// CHECK: %y = mul %silu, %u : f32[T, 11008]
// RESULT: check y: pass

// SwiGLU: y = silu(g) * u, silu(g) = g * sigmoid(g).
func @swiglu(%g: f32[T, 11008], %u: f32[T, 11008]) -> (y: f32[T, 11008]) {
  %s = sigmoid %g
  %silu = mul %g, %s
  %y = mul %silu, %u
  return %y
}
