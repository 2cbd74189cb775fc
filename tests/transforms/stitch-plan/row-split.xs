// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=known --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: fail
// CHECKED: check s: pass
// CHECKED: check y: pass

// Row splitting (AStitch's task splitting of long rows): fewer rows than the
// blocks the target wants (4 on the generic CPU target) and rows of at least
// 4 chunks of 16384 elements. Known shapes that need it get the split
// variant alone; a row count that can never be small (12*B) gets none;
// argmax keeps its rows whole (its partials would need positions).
// CHECK-LABEL: kernel @k0_sub(%x: f32[2, 100000]) -> (%s: f32[2], %y: f32[2, 100000]) bytes 1600008 {
// CHECK-NEXT:   %s = reduce_sum %x {dims = [1]} : f32[2]
// CHECK-NEXT:   %sb = broadcast %s {dims = [0]} : f32[2, 100000]
// CHECK-NEXT:   %y = sub %x, %sb : f32[2, 100000]
// CHECK-NEXT:   partials %s: f64[2, 7]
// CHECK-NEXT:   variant 0 when (none) grid 14:
// CHECK-NEXT:     group 0 dominant %s: row-partial rows 2 cols 100000 rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y ops [%sb, %y]: elementwise rows 2 cols 100000 rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     group 2 dominant %s: row-combine rows 2 cols 7 rows/block 1 lanes 8 vector 8 blocks 2
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [2]
// CHECK-NEXT:     phase 2: stage 0: groups [1]
// CHECK-NEXT:     buffers: %s global partials 14
// CHECK-NEXT:     edges: %s 2->1 global, %s 0->2 global
// CHECK-NEXT:     estimated bytes 2400240
// CHECK-NEXT:     vertical packing: 2 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k0_reduce_max(%x: f32[B, 12, C]) -> (%s: f32[B, 12]) bytes 48*B*C + 48*B {
// CHECK-NEXT:   %s = reduce_max %x {dims = [2]} : f32[B, 12]
// CHECK-NEXT:   variant 0 when C <= 64 grid 3*B:
// CHECK-NEXT:     group 0 dominant %s: row-reduce rows 12*B cols C rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (3*B + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 12*B:
// CHECK-NEXT:     group 0 dominant %s: row-reduce rows 12*B cols C rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: B + (4*B + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: kernel @k0_argmax(%x: f32[R, C]) -> (%i: i64[R]) bytes 4*C*R + 8*R {
// CHECK-NEXT:   %i = argmax %x {dim = 1} : i64[R]
// CHECK-NEXT:   variant 0 when C <= 64 grid (R + 3)/4:
// CHECK-NEXT:     group 0 dominant %i: row-reduce rows R cols C rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((R + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid R:
// CHECK-NEXT:     group 0 dominant %i: row-reduce rows R cols C rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (R + 7)/8 blocks per task
// CHECK-NEXT: }
func @known(%x: f32[2, 100000]) -> (s: f32[2], y: f32[2, 100000]) {
  %s = reduce_sum %x {dims = [1]}
  %sb = broadcast %s {dims = [0]} : f32[2, 100000]
  %y = sub %x, %sb
  return %s, %y
}

func @many(%x: f32[B, 12, C]) -> (s: f32[B, 12]) {
  %s = reduce_max %x {dims = [2]}
  return %s
}

func @arg(%x: f32[R, C]) -> (i: i64[R]) {
  %i = argmax %x {dim = 1}
  return %i
}
