// T5 / LLaMA RMSNorm: y = w * x * rsqrt(mean(x^2) + 1e-6). Perf shape: T = 2048.
func @rmsnorm(%x: f32[T, 4096], %w: f32[4096]) -> (y: f32[T, 4096]) {
  %y = rms_norm %x, %w {epsilon = 1.0e-06}
  return %y
}
