// RUN: not %xstitch-opt %s --passes=shape-inference,kernel-plan 2>&1 | FileCheck %s

// A dim that the input shapes do not determine cannot be bound at run time:
// the error names the op that introduces it.
// CHECK: errors.xs:[[@LINE+2]]:3: error: cannot compute dim symbol 'B' of %xb (f32[B, S]) from the input shapes
func @unbound(%x: f32[S]) -> (y: f32[B, S]) {
  %xb = broadcast %x {dims = [1]} : f32[B, S]
  return %xb
}
