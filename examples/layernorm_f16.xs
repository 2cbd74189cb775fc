// LayerNorm under mixed precision (PyTorch autocast, AMP): f16 rows are read,
// normalized in f32 with f32 gamma and beta, and stored as f16 again, epsilon
// 1e-5. Rows are dynamic; the perf shape is R = 16384 (48 MiB moved).
func @layernorm_f16(%x: f16[R, 768], %gamma: f32[768], %beta: f32[768]) -> (y: f16[R, 768]) {
  %xf = cast %x {to = f32}
  %yf = layer_norm %xf, %gamma, %beta {epsilon = 1.0e-05}
  %y = cast %yf {to = f16}
  return %y
}
