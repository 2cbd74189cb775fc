// Column reductions: accumulators for the block's columns in a block buffer
// (an aligned stack array in the entry block), initialized to the identity,
// rows outer and columns inner (vectorizable) with eight rows added per load
// and store of an accumulator, then the remaining rows one at a time, then
// stored. Float sums keep f64 accumulators: the eight rows are added in f32,
// then once to the accumulator, so long columns do not drift.
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 --no-fusion | FileCheck %s

func @cols(%x: f32[N, 1024]) -> (s) {
  %s = reduce_sum %x {dims = [0]}
  return %s
}

// CHECK-LABEL: define void @k0_reduce_sum.v0(
// CHECK: entry:
// CHECK-NEXT: %block.buffer = alloca [{{[0-9]+}} x double], align 32
// CHECK: init.body:
// CHECK: store double 0.000000e+00, ptr
// CHECK: !llvm.loop
// CHECK: row.body:
// CHECK: col.body:
// CHECK: %[[ACC:[0-9]+]] = getelementptr inbounds double, ptr %block.buffer, i64 %col.i
// CHECK: %[[OLD:[0-9]+]] = load double, ptr %[[ACC]]
// CHECK: %[[S1:[0-9]+]] = fadd reassoc float
// CHECK: %[[S2:[0-9]+]] = fadd reassoc float %[[S1]],
// CHECK: %[[S3:[0-9]+]] = fadd reassoc float %[[S2]],
// CHECK: %[[S4:[0-9]+]] = fadd reassoc float %[[S3]],
// CHECK: %[[S5:[0-9]+]] = fadd reassoc float %[[S4]],
// CHECK: %[[S6:[0-9]+]] = fadd reassoc float %[[S5]],
// CHECK: %[[S7:[0-9]+]] = fadd reassoc float %[[S6]],
// CHECK-NEXT: %[[WIDE:[0-9]+]] = fpext float %[[S7]] to double
// CHECK-NEXT: %[[NEW:[0-9]+]] = fadd reassoc double %[[OLD]], %[[WIDE]]
// CHECK-NEXT: store double %[[NEW]], ptr %[[ACC]]
// CHECK: !llvm.loop
// CHECK: col.body{{[0-9]+}}:
// CHECK: %[[ACC1:[0-9]+]] = getelementptr inbounds double, ptr %block.buffer, i64 %col.i{{[0-9]+}}
// CHECK: %[[OLD1:[0-9]+]] = load double, ptr %[[ACC1]]
// CHECK: fpext float
// CHECK: %[[NEW1:[0-9]+]] = fadd reassoc double %[[OLD1]],
// CHECK-NEXT: store double %[[NEW1]], ptr %[[ACC1]]
// CHECK: !llvm.loop
// CHECK: store.body:
// CHECK: load double, ptr
// CHECK: fptrunc double
// CHECK: store float
