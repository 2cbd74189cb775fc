// x86 plans pair rows of a constant length above 256 and at most 2048
// elements (TargetDescription::pairedRowElements; rows of 4096 are not):
// a block takes two rows and runs each stage over both,
// so one row's reduction tail overlaps the other row's work. A softmax under
// mixed precision also keeps its rows widened to f32 in a block buffer for
// the exp pass (keepsWidenedHalves) instead of converting them again, from
// f16 and from bf16.
// RUN: %xstitch-run %s --function=softmax_f16 --explain --dim R=1001 --cpu=x86-64-v3 | FileCheck %s --check-prefix=PAIRED
// RUN: %xstitch-run %s --function=long_rows --explain --dim R=8 --cpu=x86-64-v3 | FileCheck %s --check-prefix=LONG
// An odd row count leaves the last block one row; every kind of row matches
// the interpreter.
// RUN: %xstitch-run --random-inputs %s --function=softmax_f16 --dim R=37 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax_f16 --dim R=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=layernorm_f16 --dim R=37 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function=softmax_bf16 --dim R=37 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run %s --function=softmax_bf16 --explain --dim R=37 --cpu=x86-64-v3 | FileCheck %s --check-prefix=BF16
// RUN: %xstitch-run --random-inputs %s --function=long_rows --dim R=5 --check | FileCheck %s --check-prefix=RESULT

func @softmax_f16(%x: f16[R, 1024]) -> (y: f16[R, 1024]) {
  %xf = cast %x {to = f32}
  %yf = softmax %xf {axis = 1}
  %y = cast %yf {to = f16}
  return %y
}
// PAIRED: variant 0 (always) <- this run: grid (R + 1)/2 [501] blocks
// PAIRED: row-reduce R x 1024, 2 rows per block
// PAIRED: edge %xf: group 0 -> group 1 regional (block buffer, same phase)
// PAIRED: buffer %xf: block, 2048 elements per block (8.0 KiB)

func @layernorm_f16(%x: f16[R, 768], %g: f32[768], %b: f32[768]) -> (y: f16[R, 768]) {
  %xf = cast %x {to = f32}
  %n = layer_norm %xf, %g, %b {epsilon = 1.0e-05}
  %y = cast %n {to = f16}
  return %y
}

func @softmax_bf16(%x: bf16[R, 1024]) -> (y: bf16[R, 1024]) {
  %xf = cast %x {to = f32}
  %yf = softmax %xf {axis = 1}
  %y = cast %yf {to = bf16}
  return %y
}
// BF16: 2 rows per block
// BF16: buffer %xf: block, 2048 elements per block (8.0 KiB)

func @long_rows(%x: f32[R, 4096]) -> (y: f32[R, 4096]) {
  %y = softmax %x {axis = 1}
  return %y
}
// LONG: variant 0 (always) <- this run: grid R [8] blocks
// LONG-NOT: rows per block

// RESULT: check y: pass
