// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=3 --dim N=700 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim N=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim N=0 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim N=300 --device=nvptx-sim --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=channels_first --dim B=2 --dim N=300 --device=amdgpu-sim --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=reversed --dim B=2 --dim N=300 --check | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run --random-inputs %s --function=symbolic_channels --dim B=2 --dim C=5 --dim N=300 --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: FAIL
// CHECKED: check y: pass

// Statistics over the middle axis of [B, 96, N] whose batch slabs take
// several blocks (ConvNeXt's channels-first LayerNorm over 56*56 columns):
// each batch-column reduction reduces a strip of columns a block, block b
// owning batch b / strips and strip b % strips. The groups over [B, N]
// follow those blocks, and the normalization over [B, 96, N] too (96 rows,
// the strip's columns): the strip's mean, variance and scale stay in block
// buffers, read at the columns the block writes. One phase, every edge
// Regional, x read from memory once.
// CHECK-LABEL: kernel @k0_add(%x: f32[B, 96, N]
// CHECK:       variant 0 when (none) grid B*((N + 255)/256):
// CHECK-NEXT:    group 0 dominant %sum: batch-column-reduce batch B rows 96 cols N cols/block 256
// CHECK-NEXT:    group 1 dominant %ssq {{.*}}: batch-column-reduce batch B rows 96 cols N cols/block 256
// CHECK-NEXT:    group 2 dominant %r {{.*}}: elementwise rows B cols N rows/block 1 cols/block 256
// CHECK-NEXT:    group 3 dominant %y {{.*}}: elementwise rows 96*B cols N rows/block 96 cols/block 256
// CHECK-NEXT:    phase 0: stage 0: groups [0]; stage 1: groups [1]; stage 2: groups [2]; stage 3: groups [3]
// CHECK-NEXT:    buffers: %sum block accumulators 256, %ssq block accumulators 256, %sum block 256, %ssq block 256, %r block 256
// CHECK-NEXT:    edges: %sum 0->1 regional, %ssq 1->2 regional, %sum 0->3 regional, %r 2->3 regional
// CHECK-NEXT:    estimated bytes 768*B*N + 768
func @channels_first(%x: f32[B, 96, N], %w: f32[96], %b: f32[96]) -> (y: f32[B, 96, N]) {
  %sum = reduce_sum %x {dims = [1]}
  %n = constant {value = 0.010416667} : f32[B, N]
  %mean = mul %sum, %n
  %mb = broadcast %mean {dims = [0, 2]} : f32[B, 96, N]
  %c = sub %x, %mb
  %sq = mul %c, %c
  %ssq = reduce_sum %sq {dims = [1]}
  %var = mul %ssq, %n
  %eps = constant {value = 0.000001} : f32[B, N]
  %ve = add %var, %eps
  %r = rsqrt %ve
  %rb = broadcast %r {dims = [0, 2]} : f32[B, 96, N]
  %norm = mul %c, %rb
  %wb = broadcast %w {dims = [1]} : f32[B, 96, N]
  %bb = broadcast %b {dims = [1]} : f32[B, 96, N]
  %scaled = mul %norm, %wb
  %y = add %scaled, %bb
  return %y
}

// A sum read at other columns than the reader's (reversed) would need the
// other strips: no strips, the sum crosses a grid barrier.
// CHECK-LABEL: kernel @k0_sub(%x: f32[B, 96, N])
// CHECK:         group 1 dominant %y {{.*}}: elementwise rows 96*B cols N rows/block 4
// CHECK:         edges: %sum 0->1 global
func @reversed(%x: f32[B, 96, N]) -> (y: f32[B, 96, N]) {
  %sum = reduce_sum %x {dims = [1]}
  %i = iota {dim = 0} : i64[N]
  %last = dim_value {dims = [N - 1]} : i64[]
  %lasts = broadcast %last {dims = []} : i64[N]
  %ri = sub %lasts, %i
  %rev = gather %sum, %ri {dim = 1}
  %rb = broadcast %rev {dims = [0, 2]} : f32[B, 96, N]
  %y = sub %x, %rb
  return %y
}

// Channels of symbolic count: a block of a strip's C rows would have no
// bound, so the reader keeps rows of its own.
// CHECK-LABEL: kernel @k0_sub(%x: f32[B, C, N])
// CHECK:         group 1 dominant %y {{.*}}: elementwise rows B*C cols N rows/block 4
// CHECK:         edges: %sum 0->1 global
func @symbolic_channels(%x: f32[B, C, N]) -> (y: f32[B, C, N]) {
  %sum = reduce_sum %x {dims = [1]}
  %mb = broadcast %sum {dims = [0, 2]} : f32[B, C, N]
  %y = sub %x, %mb
  return %y
}
