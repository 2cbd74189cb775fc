// Gather: the index is loaded and widened, a negative one counts from the
// end, and the result is clamped into the dim so that no load leaves the
// buffer. An index out of range raises the kernel's status word (a branch-
// free unsigned maximum into the kernel's own word, flushed to the run's
// status word after the symbols with an atomic maximum at the end), which
// the runtime reports as the run's error, as the interpreter does.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

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
