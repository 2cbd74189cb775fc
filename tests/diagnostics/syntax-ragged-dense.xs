// RUN: not %xstitch-opt %s 2>&1 | FileCheck %s
func @f() -> (y) {
// CHECK: [[@LINE+1]]:41: error: dense literal is ragged: this list has 1 element, another at the same depth has 2
  %y = constant {value = dense<[[1, 2], [3]]>} : i32[2, 2]
  return %y
}
