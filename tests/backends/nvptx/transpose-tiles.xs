// Transposes of the last two dims on NVIDIA GPUs go through the block's
// staging tile in shared memory: lanes read the input tile along the input's
// rows (adjacent lanes at adjacent addresses) into shared memory, a block
// barrier, then write the output tile along its rows, so that neither side
// reads or writes with a stride. The plan reserves the tile (32 x 33 f32:
// a padding row, so a column of the tile spans every bank). The PTX
// assembles; the simulation checks odd shapes, a 4-D K^T and f16.
// RUN: %xstitch-run %s --function=t2d --explain --target=sm_90 --dim R=100 | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-run %s --function=t2d --emit=ptx --target=sm_90 > %t.t2d.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.t2d.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.t2d.ptx -o %t.t2d.cubin %}
// RUN: %xstitch-run --random-inputs %s --function=t2d --device=nvptx-sim --dim R=37 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=keys --device=nvptx-sim --dim B=2 --dim S=19 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=half --device=nvptx-sim:sm_80 --dim R=33 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run --random-inputs %s --function=head_keys --device=nvptx-sim --dim B=1 --dim S=45 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=head_keys --explain --target=sm_90 --dim B=1 --dim S=45 | FileCheck %s --check-prefix=HEADS
// HEADS: buffer %y: block staging
// A transpose read by an op with another tensor operand stays fused in that
// op's element loop; a transpose of a value scaled by a constant moves
// below the product (sink-transposes) and stages like a lone one.
// RUN: %xstitch-run %s --function=shifted --emit=nvptx-llvm --target=sm_90 | FileCheck %s --check-prefix=FUSED
// RUN: %xstitch-run --random-inputs %s --function=shifted --device=nvptx-sim --dim R=5 --check | FileCheck %s --check-prefix=PASS
// RUN: %xstitch-run %s --function=scaled --explain --target=sm_90 --dim R=100 | FileCheck %s --check-prefix=SCALED
// RUN: %xstitch-run --random-inputs %s --function=scaled --device=nvptx-sim --dim R=5 --check | FileCheck %s --check-prefix=PASS
// PASS-NOT: FAIL
// PASS: check y: pass

func @t2d(%x: f32[R, 96]) -> (y: f32[96, R]) {
  %y = transpose %x {perm = [1, 0]}
  return %y
}
// PLAN: group 0 (phase 0): dominant %y = transpose at {{.*}}; elementwise 96 x R, 32 rows per block, 32 columns per block
// PLAN: buffer %y: block staging (the transpose's tile), 1056 elements per block (4.1 KiB)
// PTX-LABEL: .entry k0_transpose
// PTX: ld.global.nc.f32
// PTX: st.shared.f32
// PTX: bar.sync
// PTX: ld.shared.f32
// PTX: st.global.f32
// PTX: bar.sync

func @keys(%k: f32[B, 12, S, 64]) -> (y: f32[B, 12, 64, S]) {
  %y = transpose %k {perm = [0, 1, 3, 2]}
  return %y
}

func @head_keys(%k: f32[B, S, 4, 16]) -> (y: f32[B, 4, 16, S]) {
  %y = transpose %k {perm = [0, 2, 3, 1]}
  return %y
}

func @half(%x: f16[R, 40]) -> (y: f16[40, R]) {
  %y = transpose %x {perm = [1, 0]}
  return %y
}

func @scaled(%x: f32[R, 64]) -> (y: f32[64, R]) {
  %t = transpose %x {perm = [1, 0]}
  %c = constant {value = 0.5} : f32[64, R]
  %y = mul %t, %c
  return %y
}
// SCALED: dominant %{{[0-9]+}} = transpose
// SCALED: block staging (the transpose's tile)

func @shifted(%x: f32[R, 64], %s: f32[64, R]) -> (y: f32[64, R]) {
  %t = transpose %x {perm = [1, 0]}
  %y = add %t, %s
  return %y
}
// FUSED-LABEL: define ptx_kernel void @"k0_add
// FUSED-NOT: addrspace(3)
// FUSED: ret void
