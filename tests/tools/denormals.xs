// Kernels flush subnormal results to zero by default, on the CPU and in the
// NVIDIA simulation (PTX's .ftz forms, checked in the emitted PTX);
// --keep-denormals keeps them everywhere, as the reference interpreter does. exp of x near -100 is about
// 4e-44, a subnormal float.
// RUN: %xstitch-run --random-inputs %s --input x=random:-100:-99.9 --dim N=4 | FileCheck %s --check-prefix=FLUSH
// RUN: %xstitch-run --random-inputs %s --input x=random:-100:-99.9 --dim N=4 --device=nvptx-sim | FileCheck %s --check-prefix=FLUSH
// RUN: %xstitch-run --random-inputs %s --input x=random:-100:-99.9 --dim N=4 --device=nvptx-sim --keep-denormals | FileCheck %s --check-prefix=KEEP
// RUN: %xstitch-run %s --emit=ptx --target=sm_90 | FileCheck %s --check-prefix=FTZ
// RUN: %xstitch-run %s --emit=ptx --target=sm_90 --keep-denormals | FileCheck %s --check-prefix=NOFTZ
// FTZ: .ftz.f32
// NOFTZ-NOT: .ftz
// FLUSH: result y: f32[4]  min 0 max 0
// RUN: %xstitch-run --random-inputs %s --input x=random:-100:-99.9 --dim N=4 --keep-denormals | FileCheck %s --check-prefix=KEEP
// RUN: %xstitch-run --random-inputs %s --input x=random:-100:-99.9 --dim N=4 --device=ref | FileCheck %s --check-prefix=KEEP
// KEEP: result y: f32[4]  min {{[34]\.[0-9]+e-44}} max {{[34]\.[0-9]+e-44}}
func @f(%x: f32[N]) -> (y: f32[N]) {
  %y = exp %x
  return %y
}
