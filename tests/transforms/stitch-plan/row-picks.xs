// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --dim R=37 --dim C=1000 --input=labels=random:0:999 --check | FileCheck %s --check-prefix=CHECKED
// CHECKED-NOT: fail
// CHECKED: check loss: pass

// Cross entropy as exporters write it: the label's pick (take_along_axis
// of the log-softmax at [R, 1] indices, Unsqueeze and Squeeze as reshapes)
// reads only its own row, so the row's maximum reaches it through the
// block buffer like the row's sum (Regional, one phase), not through global
// memory after a grid barrier.
// CHECK-LABEL: kernel @k0_neg(
// CHECK:       variant 2 when (none) grid R:
// CHECK:         phase 0: stage 0: groups [0]; stage 1: groups [1]; stage 2: groups [2]; stage 3: groups [3]
// CHECK-NEXT:    buffers: %m block 1, %s block 1, %l block in %loss 1
// CHECK-NEXT:    edges: %m 0->1 regional, %s 1->2 regional, %m 0->3 regional, %l 2->3 regional
func @cross_entropy(%logits: f32[R, C], %labels: i64[R]) -> (loss: f32[R]) {
  %m = reduce_max %logits {dims = [1]}
  %mb = broadcast %m {dims = [0]} : f32[R, C]
  %d = sub %logits, %mb
  %e = exp %d
  %s = reduce_sum %e {dims = [1]}
  %l = log %s
  %lb = broadcast %l {dims = [0]} : f32[R, C]
  %logp = sub %d, %lb
  %idx = reshape %labels : i64[R, 1]
  %picked = take_along_axis %logp, %idx {dim = 1}
  %row = reshape %picked : f32[R]
  %loss = neg %row
  return %loss
}
