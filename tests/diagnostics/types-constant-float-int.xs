// A float literal cannot fill an integer tensor.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f() -> (c) {
  // CHECK: [[@LINE+1]]:3: error: constant: value 0.5 is not an integer, but the result type i32[4] has integer elements; write an integer or use a float type
  %c = constant {value = 0.5} : i32[4]
  return %c
}
