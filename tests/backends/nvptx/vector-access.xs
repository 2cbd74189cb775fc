// 128-bit accesses on NVIDIA GPUs: where a row's lanes split its columns and
// the row is aligned and long enough, each lane takes runs of 16 bytes of
// adjacent columns, whose loads and stores become vector accesses of global
// memory (4 f32 or 8 f16 as v4.b32; inputs through the read-only cache,
// ld.global.nc); the one-column-a-lane path for other
// rows stays beside them. The PTX assembles.
// RUN: %xstitch-run %s --function=add_rows --emit=ptx --target=sm_90 > %t.add.ptx
// RUN: FileCheck %s --check-prefix=ADD < %t.add.ptx
// RUN: %xstitch-run %s --function=half_square --emit=ptx --target=sm_80 > %t.half.ptx
// RUN: FileCheck %s --check-prefix=HALF < %t.half.ptx
// RUN: %xstitch-run %s --function=row_sum --emit=ptx --target=sm_90 | FileCheck %s --check-prefix=SUM
// RUN: %xstitch-run %src_root/examples/layernorm.xs --emit=ptx --target=sm_90 | FileCheck %s --check-prefix=LAYERNORM
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.add.ptx -o %t.add.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.half.ptx -o %t.half.cubin %}

// ADD:     .entry k0_add_$_v0(
// ADD-DAG: ld.global.nc.v4.f32
// ADD-DAG: ld.global.nc.v4.f32
// ADD-DAG: st.global.v4.f32
// ADD-DAG: ld.global.nc.f32
// ADD-DAG: st.global.f32
func @add_rows(%x: f32[R, C], %y: f32[R, C]) -> (z: f32[R, C]) {
  %z = add %x, %y
  return %z
}

// HALF:     .entry k0_mul_$_v0(
// HALF-DAG: ld.global.nc.v4.u32
// HALF-DAG: st.global.v4.b32
func @half_square(%x: f16[R, C]) -> (z: f16[R, C]) {
  %z = mul %x, %x
  return %z
}

// SUM: ld.global.nc.v4.f32
func @row_sum(%x: f32[R, C]) -> (s: f32[R]) {
  %s = reduce_sum %x {dims = [1]}
  return %s
}

// LayerNorm's rows of 768: x read as vectors by both row sums and by the
// normalization, gamma and beta too, and y stored as vectors.
// LAYERNORM-COUNT-5: ld.global.nc.v4.f32
// LAYERNORM: st.global.v4.f32
