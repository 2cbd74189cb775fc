// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f(%x: f32[N, 4]) -> (y) {
// CHECK: [[@LINE+1]]:8: error: 'reshape' needs its result type, e.g. ': f32[N, 4]'; its shape comes from it
  %y = reshape %x
  return %y
}
