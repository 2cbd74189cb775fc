// Gather: the index is loaded and widened, a negative one counts from the
// end, and the result is clamped into the dim so that no load leaves the
// buffer. An index out of range raises the kernel's status word (a branch-
// free unsigned maximum into the kernel's own word, flushed to the run's
// status word after the symbols with an atomic maximum at the end), which
// the runtime reports as the run's error, as the interpreter does.
// RUN: %xstitch-run %s --function=g --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

func @g(%x: f32[7, 16], %idx: i32[N]) -> (y) {
  %y = gather %x, %idx {dim = 0}
  return %y
}

// CHECK-LABEL: define void @k0_gather.v0(ptr noalias nocapture readonly %buffers, ptr noalias nocapture %dims,
// CHECK: %raised = alloca i64
// CHECK: %[[RAW:[0-9]+]] = load i32, ptr
// CHECK: %[[WIDE:[0-9]+]] = sext i32 %[[RAW]] to i64
// CHECK: %[[NEG:[0-9]+]] = icmp slt i64 %[[WIDE]], 0
// CHECK: %[[FROMEND:[0-9]+]] = add i64 %[[WIDE]], 7
// CHECK: %[[RESOLVED:[0-9]+]] = select i1 %[[NEG]], i64 %[[FROMEND]], i64 %[[WIDE]]
// CHECK: icmp uge i64 %[[RESOLVED]], 7
// CHECK: call i64 @llvm.umax.i64(
// CHECK: store i64 %{{[0-9]+}}, ptr %raised
// CHECK: %[[UPPER:[0-9]+]] = call i64 @llvm.smin.i64(i64 %[[RESOLVED]], i64 6)
// CHECK: %[[CLAMPED:[0-9]+]] = call i64 @llvm.smax.i64(i64 0, i64 %[[UPPER]])
// CHECK: load float, ptr
// CHECK: store float
// CHECK: atomicrmw umax ptr %{{[0-9]+}}, i64 %{{[0-9]+}} monotonic

// Indices the graph clamps into the dim (a resize's taps) are read as they
// are: no check, no count from the end, no clamp of the kernel's own.
// RUN: %xstitch-run %s --function=clamped --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=TAPS
func @clamped(%x: f32[3, D], %i: i64[N]) -> (y: f32[3, N]) {
  %zero = constant {value = 0} : i64[]
  %zeros = broadcast %zero {dims = []} : i64[N]
  %last = dim_value {dims = [D - 1]} : i64[]
  %lasts = broadcast %last {dims = []} : i64[N]
  %above = max %i, %zeros
  %c = min %above, %lasts
  %y = gather %x, %c {dim = 1}
  return %y
}

// TAPS-LABEL: define void @k0_gather.v0(
// TAPS-NOT: %raised
// TAPS: %[[ABOVE:[0-9]+]] = call i64 @llvm.smax.i64(i64 %{{[0-9]+}}, i64 0)
// TAPS: %[[INDEX:[0-9]+]] = call i64 @llvm.smin.i64(i64 %[[ABOVE]], i64 %{{[0-9]+}})
// TAPS-NOT: call i64 @llvm.smin
// TAPS: %[[AT:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, %[[INDEX]]
// TAPS-NEXT: getelementptr inbounds float, ptr %buffer1, i64 %[[AT]]
// TAPS-NEXT: load float, ptr
