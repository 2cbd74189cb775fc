// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s

// Trailing reduced dims: a row reduction, rows = B*S, cols = H, variants
// by predicates on H; fewer than 4 rows of 65536 or more are split into
// chunks over blocks (row-partial, then row-combine in a second phase).
// CHECK-LABEL: kernel @k0_reduce_max(%x: f32[B, S, H]) -> (%y: f32[B, S]) bytes 4*B*H*S + 4*B*S {
// CHECK-NEXT:   %y = reduce_max %x {dims = [2]} : f32[B, S]
// CHECK-NEXT:   partials %y: f32[B*S, (H + 16383)/16384]
// CHECK-NEXT:   variant 0 when B*S < 4 and H >= 65536 grid B*S*((H + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: row-partial rows B*S cols H rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y: row-combine rows B*S cols (H + 16383)/16384 rows/block 1 lanes 8 vector 8 blocks B*S
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     buffers: %y global partials B*S*((H + 16383)/16384)
// CHECK-NEXT:     edges: %y 0->1 global
// CHECK-NEXT:     estimated bytes 4*B*H*S + 8*B*S*((H + 16383)/16384) + 4*B*S
// CHECK-NEXT:     vertical packing: (B*S*((H + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when H <= 64 grid (B*S + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows B*S cols H rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 4*B*H*S + 4*B*S
// CHECK-NEXT:     vertical packing: ((B*S + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid B*S:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows B*S cols H rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 4*B*H*S + 4*B*S
// CHECK-NEXT:     vertical packing: (B*S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @row {
// CHECK-NEXT:   symbols: [B, S, H]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, H] input 0
// CHECK-NEXT:     #1 %y: f32[B, S] output 0
// CHECK-NEXT:     #2 %y_partials: f32[B*S, (H + 16383)/16384] temporary slot 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_max(#0, #1, #2) ops [%y = reduce_max] bytes 4*B*H*S + 4*B*S
// CHECK-NEXT:       k0_reduce_max.v0 when B*S < 4 and H >= 65536 grid B*S*((H + 16383)/16384) phases 2 own-block groups blocks/task (B*S*((H + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_reduce_max.v1 when H <= 64 grid (B*S + 3)/4 blocks/task ((B*S + 3)/4 + 7)/8
// CHECK-NEXT:       k0_reduce_max.v2 when (none) grid B*S blocks/task (B*S + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @row(%x: f32[B, S, H]) -> (y: f32[B, S]) {
  %y = reduce_max %x {dims = [2]}
  return %y
}

// The same with one symbolic row length.
// CHECK-LABEL: kernel @k0_reduce_sum(%x: f32[R, C]) -> (%y: f32[R]) bytes 4*C*R + 4*R {
// CHECK-NEXT:   %y = reduce_sum %x {dims = [1]} : f32[R]
// CHECK-NEXT:   partials %y: f64[R, (C + 16383)/16384]
// CHECK-NEXT:   variant 0 when R < 4 and C >= 65536 grid R*((C + 16383)/16384):
// CHECK-NEXT:     group 0 dominant %y: row-partial rows R cols C rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y: row-combine rows R cols (C + 16383)/16384 rows/block 1 lanes 8 vector 8 blocks R
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     buffers: %y global partials R*((C + 16383)/16384)
// CHECK-NEXT:     edges: %y 0->1 global
// CHECK-NEXT:     estimated bytes 4*C*R + 16*R*((C + 16383)/16384) + 4*R
// CHECK-NEXT:     vertical packing: (R*((C + 16383)/16384) + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when C <= 64 grid (R + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows R cols C rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 4*C*R + 4*R
// CHECK-NEXT:     vertical packing: ((R + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 2 when (none) grid R:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows R cols C rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 4*C*R + 4*R
// CHECK-NEXT:     vertical packing: (R + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @row_sym {
// CHECK-NEXT:   symbols: [R, C]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[R, C] input 0
// CHECK-NEXT:     #1 %y: f32[R] output 0
// CHECK-NEXT:     #2 %y_partials: f64[R, (C + 16383)/16384] temporary slot 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_sum(#0, #1, #2) ops [%y = reduce_sum] bytes 4*C*R + 4*R
// CHECK-NEXT:       k0_reduce_sum.v0 when R < 4 and C >= 65536 grid R*((C + 16383)/16384) phases 2 own-block groups blocks/task (R*((C + 16383)/16384) + 7)/8
// CHECK-NEXT:       k0_reduce_sum.v1 when C <= 64 grid (R + 3)/4 blocks/task ((R + 3)/4 + 7)/8
// CHECK-NEXT:       k0_reduce_sum.v2 when (none) grid R blocks/task (R + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @row_sym(%x: f32[R, C]) -> (y: f32[R]) {
  %y = reduce_sum %x {dims = [1]}
  return %y
}

// Leading reduced dims: a column reduction, rows = B*S (reduced),
// cols = 1024. With at least 512 rows, blocks of 128 rows write f64
// partials that a second phase combines in strips of 256 columns; else
// strips of 256 columns, accumulators in a block buffer.
// CHECK-LABEL: kernel @k0_reduce_sum(%x: f32[B, S, 1024]) -> (%y: f32[1024]) bytes 4096*B*S + 4096 {
// CHECK-NEXT:   %y = reduce_sum %x {dims = [0, 1]} : f32[1024]
// CHECK-NEXT:   partials %y: f64[(B*S + 127)/128, 1024]
// CHECK-NEXT:   variant 0 when B*S >= 512 grid (B*S + 127)/128:
// CHECK-NEXT:     group 0 dominant %y: column-partial rows B*S cols 1024 rows/block 128 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y: column-combine rows (B*S + 127)/128 cols 1024 cols/block 256 lanes 8 vector 8 blocks 4
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     buffers: %y global partials 1024*((B*S + 127)/128)
// CHECK-NEXT:     edges: %y 0->1 global
// CHECK-NEXT:     estimated bytes 4096*B*S + 16384*((B*S + 127)/128) + 4096
// CHECK-NEXT:     vertical packing: ((B*S + 127)/128 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 4:
// CHECK-NEXT:     group 0 dominant %y: column-reduce rows B*S cols 1024 cols/block 256 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: %y block accumulators 256
// CHECK-NEXT:     estimated bytes 4096*B*S + 4096
// CHECK-NEXT: }
// CHECK-LABEL: host @column {
// CHECK-NEXT:   symbols: [B, S]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, 1024] input 0
// CHECK-NEXT:     #1 %y: f32[1024] output 0
// CHECK-NEXT:     #2 %y_partials: f64[(B*S + 127)/128, 1024] temporary slot 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_sum(#0, #1, #2) ops [%y = reduce_sum] bytes 4096*B*S + 4096
// CHECK-NEXT:       k0_reduce_sum.v0 when B*S >= 512 grid (B*S + 127)/128 phases 2 own-block groups blocks/task ((B*S + 127)/128 + 7)/8
// CHECK-NEXT:       k0_reduce_sum.v1 when (none) grid 4
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @column(%x: f32[B, S, 1024]) -> (y: f32[1024]) {
  %y = reduce_sum %x {dims = [0, 1]}
  return %y
}

// Symbolic columns (f64: vector 4): strips of lanes*vector*4 = 128.
// CHECK-LABEL: kernel @k0_reduce_min(%x: f64[R, C]) -> (%y: f64[C]) bytes 8*C*R + 8*C {
// CHECK-NEXT:   %y = reduce_min %x {dims = [0]} : f64[C]
// CHECK-NEXT:   partials %y: f64[(R + 127)/128, C]
// CHECK-NEXT:   variant 0 when R >= 512 grid (R + 127)/128:
// CHECK-NEXT:     group 0 dominant %y: column-partial rows R cols C rows/block 128 lanes 8 vector 4
// CHECK-NEXT:     group 1 dominant %y: column-combine rows (R + 127)/128 cols C cols/block 128 lanes 8 vector 4 blocks (C + 127)/128
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     buffers: %y global partials C*((R + 127)/128)
// CHECK-NEXT:     edges: %y 0->1 global
// CHECK-NEXT:     estimated bytes 8*C*R + 16*C*((R + 127)/128) + 8*C
// CHECK-NEXT:     vertical packing: ((R + 127)/128 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid (C + 127)/128:
// CHECK-NEXT:     group 0 dominant %y: column-reduce rows R cols C cols/block 128 lanes 8 vector 4
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: %y block accumulators 128
// CHECK-NEXT:     estimated bytes 8*C*R + 8*C
// CHECK-NEXT:     vertical packing: ((C + 127)/128 + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @column_sym {
// CHECK-NEXT:   symbols: [R, C]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f64[R, C] input 0
// CHECK-NEXT:     #1 %y: f64[C] output 0
// CHECK-NEXT:     #2 %y_partials: f64[(R + 127)/128, C] temporary slot 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_min(#0, #1, #2) ops [%y = reduce_min] bytes 8*C*R + 8*C
// CHECK-NEXT:       k0_reduce_min.v0 when R >= 512 grid (R + 127)/128 phases 2 own-block groups blocks/task ((R + 127)/128 + 7)/8
// CHECK-NEXT:       k0_reduce_min.v1 when (none) grid (C + 127)/128 blocks/task ((C + 127)/128 + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @column_sym(%x: f64[R, C]) -> (y: f64[C]) {
  %y = reduce_min %x {dims = [0]}
  return %y
}

// A middle run of reduced dims: a column reduction per batch index.
// CHECK-LABEL: kernel @k0_reduce_sum(%x: f32[B, S, 768]) -> (%y: f32[B, 768]) bytes 3072*B*S + 3072*B {
// CHECK-NEXT:   %y = reduce_sum %x {dims = [1]} : f32[B, 768]
// CHECK-NEXT:   variant 0 when (none) grid 3*B:
// CHECK-NEXT:     group 0 dominant %y: batch-column-reduce batch B rows S cols 768 cols/block 256 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: %y block accumulators 256
// CHECK-NEXT:     vertical packing: (3*B + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @batch_column {
// CHECK-NEXT:   symbols: [B, S]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, 768] input 0
// CHECK-NEXT:     #1 %y: f32[B, 768] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_sum(#0, #1) ops [%y = reduce_sum] bytes 3072*B*S + 3072*B
// CHECK-NEXT:       k0_reduce_sum.v0 when (none) grid 3*B blocks/task (3*B + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @batch_column(%x: f32[B, S, 768]) -> (y: f32[B, 768]) {
  %y = reduce_sum %x {dims = [1]}
  return %y
}

// Non-contiguous reduced dims: generic, one row per output (cols 1), each
// looping over its B*H reduced elements; variants by predicates on B*H.
// CHECK-LABEL: kernel @k0_reduce_prod(%x: f32[B, S, H]) -> (%y: f32[S]) bytes 4*B*H*S + 4*S {
// CHECK-NEXT:   %y = reduce_prod %x {dims = [0, 2]} : f32[S]
// CHECK-NEXT:   variant 0 when B*H <= 64 grid (S + 3)/4:
// CHECK-NEXT:     group 0 dominant %y: generic rows S cols 1 rows/block 4 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: ((S + 3)/4 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid S:
// CHECK-NEXT:     group 0 dominant %y: generic rows S cols 1 rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     vertical packing: (S + 7)/8 blocks per task
// CHECK-NEXT: }
// CHECK-LABEL: host @generic {
// CHECK-NEXT:   symbols: [B, S, H]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[B, S, H] input 0
// CHECK-NEXT:     #1 %y: f32[S] output 0
// CHECK-NEXT:   slots: 0
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_prod(#0, #1) ops [%y = reduce_prod] bytes 4*B*H*S + 4*S
// CHECK-NEXT:       k0_reduce_prod.v0 when B*H <= 64 grid (S + 3)/4 blocks/task ((S + 3)/4 + 7)/8
// CHECK-NEXT:       k0_reduce_prod.v1 when (none) grid S blocks/task (S + 7)/8
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @generic(%x: f32[B, S, H]) -> (y: f32[S]) {
  %y = reduce_prod %x {dims = [0, 2]}
  return %y
}

// Reducing every dim is a row reduction of one row, split from 65536 up.
// CHECK-LABEL: kernel @k0_reduce_sum(%x: f32[N]) -> (%y: f32[]) bytes 4*N + 4 {
// CHECK-NEXT:   %y = reduce_sum %x {dims = [0]} : f32[]
// CHECK-NEXT:   partials %y: f64[1, (N + 16383)/16384]
// CHECK-NEXT:   variant 0 when N >= 65536 grid (N + 16383)/16384:
// CHECK-NEXT:     group 0 dominant %y: row-partial rows 1 cols N rows/block 1 cols/block 16384 lanes 8 vector 8
// CHECK-NEXT:     group 1 dominant %y: row-combine rows 1 cols (N + 16383)/16384 rows/block 1 lanes 8 vector 8 blocks 1
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     phase 1: stage 0: groups [1]
// CHECK-NEXT:     buffers: %y global partials (N + 16383)/16384
// CHECK-NEXT:     edges: %y 0->1 global
// CHECK-NEXT:     estimated bytes 4*N + 16*((N + 16383)/16384) + 4
// CHECK-NEXT:     vertical packing: ((N + 16383)/16384 + 7)/8 blocks per task
// CHECK-NEXT:   variant 1 when (none) grid 1:
// CHECK-NEXT:     group 0 dominant %y: row-reduce rows 1 cols N rows/block 1 lanes 8 vector 8
// CHECK-NEXT:     phase 0: stage 0: groups [0]
// CHECK-NEXT:     buffers: (none)
// CHECK-NEXT:     estimated bytes 4*N + 4
// CHECK-NEXT: }
// CHECK-LABEL: host @full {
// CHECK-NEXT:   symbols: [N]
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %x: f32[N] input 0
// CHECK-NEXT:     #1 %y: f32[] output 0
// CHECK-NEXT:     #2 %y_partials: f64[1, (N + 16383)/16384] temporary slot 0
// CHECK-NEXT:   slots: 1
// CHECK-NEXT:   steps:
// CHECK-NEXT:     0: launch k0_reduce_sum(#0, #1, #2) ops [%y = reduce_sum] bytes 4*N + 4
// CHECK-NEXT:       k0_reduce_sum.v0 when N >= 65536 grid (N + 16383)/16384 phases 2 own-block groups blocks/task ((N + 16383)/16384 + 7)/8
// CHECK-NEXT:       k0_reduce_sum.v1 when (none) grid 1
// CHECK-NEXT:   outputs: [#1]
// CHECK-NEXT: }
func @full(%x: f32[N]) -> (y: f32[]) {
  %y = reduce_sum %x {dims = [0]}
  return %y
}
