// A pad of the last dim that an element loop computes at its own index
// (through element-wise ops) is walked a piece at a time, as a concat's
// operands are (concat-pieces.xs): the columns before the operand's, the
// operand's own, and those after. The middle piece reads the operand at
// consecutive addresses, without the reflected, clamped or masked index
// every column needs at the edges, which the loop vectorizer could only
// turn into gathers. A reflect pad plus a replicate pad of [B, 3, H, W]
// (F.pad as PyTorch exports it) ran at 0.17 of the memory floor that way.
// RUN: %xstitch-run %s --function=reflect --emit=llvm --cpu=x86-64-v3 | FileCheck %s --check-prefix=VECTOR
// With AVX-512 the reflected columns of the edge pieces (clamped, in case
// a dim is shorter than its padding at run time) may still gather.
// RUN: %xstitch-run %s --function=reflect --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=LOADS
// RUN: %xstitch-run --random-inputs %s --function=reflect --dim B=2 --dim H=4 --dim W=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=reflect --dim B=1 --dim H=3 --dim W=37 --check | FileCheck %s --check-prefix=RESULT
// Constant padding, the operand's columns possibly none at run time: the
// columns beside them are the fill, without reads.
// RUN: %xstitch-run %s --function=constant --emit=llvm --cpu=x86-64-v4 | FileCheck %s --check-prefix=VECTOR
// RUN: %xstitch-run --random-inputs %s --function=constant --dim R=3 --dim W=21 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=constant --dim R=3 --dim W=0 --check | FileCheck %s --check-prefix=RESULT
// A pad the loop also reads at another index (here transposed) keeps its
// selects for that read.
// RUN: %xstitch-run --random-inputs %s --function=crossed --check | FileCheck %s --check-prefix=RESULT

func @reflect(%x: f32[B, 3, H, W]) -> (y) {
  %r = pad %x {low = [0, 0, 2, 1], high = [0, 0, 1, 2], mode = reflect}
  %two = constant {value = 2.0} : f32[B, 3, H + 3, W + 3]
  %s = mul %r, %two
  %e = pad %x {low = [0, 0, 2, 1], high = [0, 0, 1, 2], mode = edge}
  %y = add %s, %e
  return %y
}
// VECTOR-NOT: gather
// VECTOR: {{load <(8|16) x float>|masked.load.v(8|16)f32}}
// VECTOR-NOT: gather
// LOADS: load <16 x float>

func @constant(%x: f32[R, W]) -> (y) {
  %p = pad %x {low = [0, 3], high = [0, 4], mode = constant, value = 1.5}
  %y = exp %p
  return %y
}

func @crossed(%x: f32[6, 4]) -> (y) {
  %p = pad %x {low = [1, 2], high = [1, 2], mode = reflect}
  %t = transpose %p {perm = [1, 0]}
  %y = sub %p, %t
  return %y
}
// RESULT-NOT: fail
// RESULT: check y: pass
