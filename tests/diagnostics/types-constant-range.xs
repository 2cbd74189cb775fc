// An integer literal must fit the element type.
// RUN: not %xstitch-opt %s --passes=verify 2>&1 | FileCheck %s

func @f() -> (c) {
  // CHECK: [[@LINE+1]]:3: error: constant: value 300 does not fit in i8 (range -128 to 127)
  %c = constant {value = 300} : i8[]
  return %c
}
