// RUN: %xstitch-opt %s --passes=shape-inference,decompose,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=3 --dim C=30001 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=5 --dim C=40000 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax --dim R=37 --dim C=61 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=two_tiles --dim R=7 --dim C=3001 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=two_tiles --dim R=2 --dim C=50001 --check | FileCheck %s --check-prefix=RESULT

// A tile whose only reader overwrites it, element by element, with a result
// of its type lives in that result's tile (AStitch's reuse of a result's
// memory): softmax keeps exp in y for rows of any length, so no variant
// bounds the row length to fit exp in the block buffer, and exp is never
// recomputed. A tile bounded by the target's resultTileMinBytes (the packed
// variant's 4 rows of at most 64) stays a block buffer of its own, so that
// y is only written and can be streamed.
func @softmax(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}
// CHECK-LABEL: kernel @k0_mul(%x: f32[R, C])
// CHECK:       variant 1 when C <= 64 grid (R + 3)/4:
// CHECK:         buffers: %3 block 4*C, %0 block 4, %4 block 4, %5 block 4
// CHECK-NEXT:    edges: %0 0->1 regional, %4 1->2 regional, %5 2->3 regional, %3 1->3 regional
// CHECK:       variant 2 when (none) grid R:
// CHECK:         buffers: %3 block in %7 C, %0 block 1, %4 block 1, %5 block 1
// CHECK-NOT:   variant 3

// A result holds one tile: of two tiles its reader overwrites, the first
// lives in it; the other stays in the block buffer where its size is
// bounded, and is recomputed where it is not.
func @two_tiles(%x: f32[R, C]) -> (y: f32[R, C]) {
  %a = exp %x
  %b = tanh %x
  %ab = add %a, %b
  %s = reduce_sum %ab {dims = [1]}
  %sb = broadcast %s {dims = [0]} : f32[R, C]
  %p = mul %a, %b
  %y = div %p, %sb
  return %y
}
// CHECK-LABEL: kernel @k0_div(%x: f32[R, C])
// CHECK:       variant 2 when C <= 32768 grid R:
// CHECK:         buffers: %a block in %y C, %b block C, %s block 1
// CHECK:       variant 3 when (none) grid R:
// CHECK-NEXT:    group 0 dominant %s ops [%a, %b, %ab, %s]
// CHECK-NEXT:    group 1 dominant %y ops [%b, %sb, %p, %y]
// CHECK:         buffers: %a block in %y C, %s block 1

// RESULT-NOT: fail
// RESULT: check y: pass
