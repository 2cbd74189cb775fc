// Vertical packing (KernelVariant::blocksPerTask): every variant's blocks are
// packed into tasks of consecutive blocks, about tasksPerUnit (4) per
// parallel unit (2 on the generic CPU target): ceil(grid / 8) blocks each. A
// grid of one block is one task and prints nothing; the host plan carries the
// same expression to the runtime, and --explain evaluates it.
// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run %s --function=rows --dim R=1000 --threads=2 --explain | FileCheck %s --check-prefix=EXPLAIN
// Tasks of every size run correctly: fewer blocks than tasks, a grid that
// does not divide into them, and many blocks per task.
// RUN: %xstitch-run --random-inputs %s --function=rows --dim R=3 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=rows --dim R=1001 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=rows --dim R=1001 --threads=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=one --check | FileCheck %s --check-prefix=RESULT

func @rows(%x: f32[R, 1024]) -> (y) {
  %s = reduce_sum %x {dims = [1]}
  %b = broadcast %s {dims = [0]} : f32[R, 1024]
  %y = sub %x, %b
  return %y
}
// CHECK-LABEL: kernel @k0_sub(
// CHECK:         variant 0 when (none) grid R:
// CHECK:           vertical packing: (R + 7)/8 blocks per task
// CHECK-NEXT:  }
// CHECK-LABEL: host @rows {
// CHECK:         k0_sub.v0 when (none) grid R blocks/task (R + 7)/8

// On x86 rows of 1024 are paired (TargetDescription::pairedRowElements): 500 blocks.
// EXPLAIN: variant 0 (always)  <- this run: grid (R + 1)/2 [500] blocks of {{[0-9]+}} lanes, 1 phase, ((R + 1)/2 + 7)/8 [63] blocks per task

func @one(%x: f32[1, 64]) -> (y) {
  %y = exp %x
  return %y
}
// CHECK-LABEL: kernel @k0_exp(
// CHECK-NOT:     vertical packing
// CHECK:       }
// CHECK-LABEL: host @one {
// CHECK-NOT:     blocks/task
// CHECK:       }

// RESULT-NOT: fail
// RESULT: pass
