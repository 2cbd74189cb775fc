// RUN: not %xstitch-opt %s --passes=shape-inference,kernel-plan 2>&1 | FileCheck %s

// Planning needs composites decomposed first; the error names the op.
// CHECK: composite.xs:[[@LINE+2]]:3: error: cannot plan kernels for composite op 'softmax' (%y); run the decompose pass first
func @composite(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x
  return %y
}
