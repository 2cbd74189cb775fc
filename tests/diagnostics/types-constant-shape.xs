// A dense literal must have the static shape of the result type.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f() -> (c) {
  // CHECK: [[@LINE+1]]:3: error: constant: the dense literal has shape [2, 2], but the result type is f32[4]
  %c = constant {value = dense<[[1.0, 2.0], [3.0, 4.0]]>} : f32[4]
  return %c
}
