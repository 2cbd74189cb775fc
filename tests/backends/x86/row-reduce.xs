// Row reductions: the inner loop carries the accumulator from the identity,
// float sums with `reassoc` so the vectorizer can reduce in vector lanes,
// max as nnan nsz llvm.maxnum (vectorizable) with OR-reduced flags for NaN
// and +0 that restore NaN propagation and the signed-zero order after the
// loop, and one store per row after it. The flags are i32 set in their sign
// bit by arithmetic on the element's bits (NaN: magnitude + 0x7fffff carries
// into the sign; +0: ~b & (b - 1)), with no compare in the loop.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

func @rows(%x: f32[N, M]) -> (s, m) {
  %s = reduce_sum %x {dims = [1]}
  %m = reduce_max %x {dims = [1]}
  return %s, %m
}

// CHECK-LABEL: define void @k0_reduce_sum.v0(
// CHECK: row.body:
// CHECK: col.body:
// CHECK: %col.acc = phi float [ 0.000000e+00, %row.body ], [ %[[NEXT:[0-9]+]], %col.body ]
// CHECK: %[[X:[0-9]+]] = load float, ptr
// CHECK: %[[NEXT]] = fadd reassoc float %col.acc, %[[X]]
// CHECK: br i1 %{{[0-9]+}}, label %col.body, label %col.exit, !llvm.loop
// CHECK: col.exit:
// CHECK: %col.out = phi float [ 0.000000e+00, %row.body ], [ %[[NEXT]], %col.body ]
// CHECK: store float %col.out, ptr

// CHECK-LABEL: define void @k1_reduce_max.v0(
// CHECK: %col.acc = phi float [ 0xFFF0000000000000, %row.body ]
// CHECK: %col.acc1 = phi i32 [ 0, %row.body ]
// CHECK: %col.acc2 = phi i32 [ 0, %row.body ]
// CHECK: %[[X:[0-9]+]] = load float, ptr
// CHECK: call nnan nsz float @llvm.maxnum.f32(float %col.acc, float %[[X]])
// CHECK: %[[BITS:[0-9]+]] = bitcast float %[[X]] to i32
// CHECK: %[[MAG:[0-9]+]] = and i32 %[[BITS]], 2147483647
// CHECK: %[[NAN:[0-9]+]] = add i32 %[[MAG]], 8388607
// CHECK: or i32 %col.acc1, %[[NAN]]
// CHECK-NOT: fcmp
// CHECK: or i32 %col.acc2,
// CHECK: col.exit:
// CHECK: %[[SAWZERO:[0-9]+]] = icmp slt i32 %col.out{{[0-9]+}}, 0
// CHECK: %[[ZERO:[0-9]+]] = select i1 %[[SAWZERO]], float 0.000000e+00, float -0.000000e+00
// CHECK: %[[ISZERO:[0-9]+]] = fcmp oeq float %col.out, 0.000000e+00
// CHECK: %[[VALUE:[0-9]+]] = select i1 %[[ISZERO]], float %[[ZERO]], float %col.out
// CHECK: %[[SAWNAN:[0-9]+]] = icmp slt i32 %col.out{{[0-9]+}}, 0
// CHECK: %[[RESULT:[0-9]+]] = select i1 %[[SAWNAN]], float 0x7FF8000000000000, float %[[VALUE]]
// CHECK: store float %[[RESULT]], ptr
