// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=stats --dim B=3 --dim L=37 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=wide_stats --dim B=2 --dim L=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=wide_stats --dim B=3 --dim L=5 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=wide_stats --dim B=3 --dim L=5 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: FAIL
// CHECKED: check mean: pass
// CHECKED: check var: pass

// Mean and variance over the middle axis of [B, L, C] (pooling, a BatchNorm
// over a sequence): each batch-column reduction gives a batch index one
// block with all C columns, so the batch's block also computes its mean,
// the centred squares that read that mean at their own (b, c), and their
// sum: one phase, every edge Regional, x read once per phase. Groups follow
// the last batch-column reduction's blocks as they follow a row reduction's.
// CHECK-LABEL: kernel @k0_div(%x: f32[B, L, 256])
// CHECK:       variant 0 when (none) grid B:
// CHECK-NEXT:    group 0 dominant %sum: batch-column-reduce batch B rows L cols 256 cols/block 256
// CHECK-NEXT:    group 1 dominant %mean {{.*}}: elementwise rows B cols 256 rows/block 1
// CHECK-NEXT:    group 2 dominant %ssq {{.*}}: batch-column-reduce batch B rows L cols 256 cols/block 256
// CHECK-NEXT:    group 3 dominant %var {{.*}}: elementwise rows B cols 256 rows/block 1
// CHECK-NEXT:    phase 0: stage 0: groups [0]; stage 1: groups [1]; stage 2: groups [2]; stage 3: groups [3]
// CHECK-NEXT:    buffers: %sum block accumulators 256, %ssq block accumulators 256, %sum block in %mean 256, %ssq block in %var 256
// CHECK-NEXT:    edges: %sum 0->1 regional, %mean 1->2 regional, %ssq 2->3 regional
// CHECK-NEXT:    estimated bytes 1024*B*L + 2048*B

// Columns that take several strips (blocks) per batch index: the groups
// follow the strips (batch-column-strips.xs), still one phase.
// CHECK-LABEL: kernel @k0_div(%x: f32[B, L, 4096])
// CHECK:       variant 0 when (none) grid 16*B:
// CHECK-NEXT:    group 0 dominant %sum: batch-column-reduce batch B rows L cols 4096 cols/block 256
// CHECK-NEXT:    group 1 dominant %mean {{.*}}: elementwise rows B cols 4096 rows/block 1 cols/block 256
// CHECK:         phase 0: stage 0: groups [0]; stage 1: groups [1]; stage 2: groups [2]; stage 3: groups [3]
// CHECK:         edges: %sum 0->1 regional, %mean 1->2 regional, %ssq 2->3 regional
func @stats(%x: f32[B, L, 256]) -> (mean: f32[B, 256], var: f32[B, 256]) {
  %sum = reduce_sum %x {dims = [1]}
  %len = dim_value {dims = [L]} : f32[B, 256]
  %mean = div %sum, %len
  %mb = broadcast %mean {dims = [0, 2]} : f32[B, L, 256]
  %c = sub %x, %mb
  %sq = mul %c, %c
  %ssq = reduce_sum %sq {dims = [1]}
  %var = div %ssq, %len
  return %mean, %var
}

func @wide_stats(%x: f32[B, L, 4096]) -> (mean: f32[B, 4096], var: f32[B, 4096]) {
  %sum = reduce_sum %x {dims = [1]}
  %len = dim_value {dims = [L]} : f32[B, 4096]
  %mean = div %sum, %len
  %mb = broadcast %mean {dims = [0, 2]} : f32[B, L, 4096]
  %c = sub %x, %mb
  %sq = mul %c, %c
  %ssq = reduce_sum %sq {dims = [1]}
  %var = div %ssq, %len
  return %mean, %var
}
