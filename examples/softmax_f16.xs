// Row softmax under mixed precision (AMP: autocast computes softmax in f32):
// f16 scores of 1024 keys per row are read, normalized in f32 and stored as
// f16. Rows are dynamic; the perf shape is R = 16384 (64 MiB moved).
func @softmax_f16(%x: f16[R, 1024]) -> (y: f16[R, 1024]) {
  %xf = cast %x {to = f32}
  %yf = softmax %xf {axis = 1}
  %y = cast %yf {to = f16}
  return %y
}
