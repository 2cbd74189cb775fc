// The oracle rounds each op's result to its type, as compiled code stores
// it: an f32 graph that overflows as PyTorch's does (x*1e30*1e30/1e30) is
// inf in both, and --check passes. --oracle=f64 computes in f64 throughout,
// the exact value, which compiled f32 code cannot reach here.
// RUN: %xstitch-run --random-inputs %s --dim N=4 --input x=random:1:2 --check | FileCheck %s --check-prefix=ROUNDED
// RUN: %expect-exit 1 %xstitch-run --random-inputs %s --dim N=4 --input x=random:1:2 --check --oracle=f64 | FileCheck %s --check-prefix=F64
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --dim N=4 --check --oracle=exact 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --dim N=4 --oracle=f64 2>&1 | FileCheck %s --check-prefix=ALONE
// ROUNDED: result y: f32[4]  min inf max inf
// ROUNDED: check y: pass
// F64: check y: FAIL: 4 of 4 elements differ
// F64: got inf, expected
// BAD: error: --oracle needs rounded or f64, got 'exact'
// ALONE: error: --oracle says what --check compares with; pass --check too
func @f(%x: f32[N]) -> (y: f32[N]) {
  %a = constant {value = 1.0e30} : f32[]
  %ab = broadcast %a {dims = []} : f32[N]
  %p = mul %x, %ab
  %q = mul %p, %ab
  %y = div %q, %ab
  return %y
}
