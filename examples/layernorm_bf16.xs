// LayerNorm under mixed precision (PyTorch autocast, AMP): bf16 rows are read,
// normalized in f32 with f32 gamma and beta, and stored as bf16 again, epsilon
// 1e-5. Rows are dynamic; the perf shape is R = 16384 (48 MiB moved).
func @layernorm_bf16(%x: bf16[R, 768], %gamma: f32[768], %beta: f32[768]) -> (y: bf16[R, 768]) {
  %xf = cast %x {to = f32}
  %yf = layer_norm %xf, %gamma, %beta {epsilon = 1.0e-05}
  %y = cast %yf {to = bf16}
  return %y
}
