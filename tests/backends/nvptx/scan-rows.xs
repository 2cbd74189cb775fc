// A cumsum along the last dim on NVIDIA GPUs: a warp walks each line, a
// tile of 32 adjacent elements at a time (coalesced), the tile's running
// sums by butterflies from lane distance 1 up, the upper half of each pair
// of groups adding the lower half's total; the sum before the tile is
// carried in every lane. Lanes past the line's end load nothing and store
// nothing but take part in every exchange. The PTX assembles.
// RUN: %xstitch-run %s --function=rows --explain --target=sm_90 --dim R=5 --dim N=100 | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-run %s --function=rows_i32 --emit=nvptx-llvm --target=sm_90 | FileCheck %s --check-prefix=LLVM
// RUN: %xstitch-run %s --function=rows --emit=ptx --target=sm_80 > %t.rows.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.rows.ptx -o %t.rows.cubin %}
//
// On the simulation, against the interpreter: lines of one, shorter than a
// warp, a warp and one, several tiles; f32 sums in f64 and f64 (tree-ordered
// sums, within the tolerance), integers exactly:
// RUN: %xstitch-run %s --function=rows --random-inputs --check --dim R=5 --dim N=1 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=rows --random-inputs --check --dim R=9 --dim N=100 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=rows_excl_rev --random-inputs --check --dim R=3 --dim N=33 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// RUN: %xstitch-run %s --function=rows_i32 --random-inputs --check --dim R=11 --dim N=31 --device=nvptx-sim | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=rows_i32 --random-inputs --check --dim R=2 --dim N=97 --device=nvptx-sim | FileCheck %s --check-prefix=EXACT
// RUN: %xstitch-run %s --function=rows_f16 --random-inputs --check --dim R=4 --dim N=70 --device=nvptx-sim | FileCheck %s --check-prefix=CHECKED
// CHECKED: check y: pass
// EXACT: check y: pass ({{[0-9]+}} elements, max abs error 0,

// PLAN: group 0 (phase 0): dominant %y = cumsum {{.*}}; scan R x N, 8 rows per block, 32 lanes per row
func @rows(%x: f32[R, N]) -> (y: f32[R, N]) {
  %y = cumsum %x {dim = 1}
  return %y
}

func @rows_excl_rev(%x: f64[R, N]) -> (y: f64[R, N]) {
  %y = cumsum %x {dim = 1, exclusive = 1, reverse = 1}
  return %y
}

// LLVM:      define ptx_kernel void @"k0_mul_$_v0"
// LLVM:        %scan.step = add i64 %scan.tiles.i, %row.lane
// LLVM:        %warp.lane = and i64 %{{.*}}, 31
// LLVM:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 1, i32 31)
// LLVM:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 2, i32 31)
// LLVM:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 4, i32 31)
// LLVM:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 8, i32 31)
// LLVM:        call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{.*}}, i32 16, i32 31)
// LLVM:        %scan.tiles.next = add nuw nsw i64 %scan.tiles.i, 32
func @rows_i32(%x: i32[R, N]) -> (y: i32[R, N]) {
  %c = cumsum %x {dim = 1, exclusive = 1}
  %y = mul %c, %x
  return %y
}

func @rows_f16(%x: f16[R, N]) -> (y: f16[R, N]) {
  %y = cumsum %x {dim = 1, reverse = 1}
  return %y
}

