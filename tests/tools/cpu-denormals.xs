// CPU kernels flush subnormal results to zero by default; --keep-denormals
// keeps them, as the reference interpreter does. exp of x near -100 is about
// 4e-44, a subnormal float.
// RUN: %xstitch-run %s --input x=random:-100:-99.9 --dim N=4 | FileCheck %s --check-prefix=FLUSH
// FLUSH: result y: f32[4]  min 0 max 0
// RUN: %xstitch-run %s --input x=random:-100:-99.9 --dim N=4 --keep-denormals | FileCheck %s --check-prefix=KEEP
// RUN: %xstitch-run %s --input x=random:-100:-99.9 --dim N=4 --device=ref | FileCheck %s --check-prefix=KEEP
// KEEP: result y: f32[4]  min {{[34]\.[0-9]+e-44}} max {{[34]\.[0-9]+e-44}}
func @f(%x: f32[N]) -> (y: f32[N]) {
  %y = exp %x
  return %y
}
