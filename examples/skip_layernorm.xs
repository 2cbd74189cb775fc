// BERT output block: y = LayerNorm(x + bias + residual) * gamma + beta.
// Perf shape: B = 32, S = 128.
func @skip_layernorm(%x: f32[B, S, 768], %residual: f32[B, S, 768], %bias: f32[768],
                     %gamma: f32[768], %beta: f32[768]) -> (y: f32[B, S, 768]) {
  %bias_b = broadcast %bias {dims = [2]} : f32[B, S, 768]
  %xb = add %x, %bias_b
  %sum = add %xb, %residual
  %y = layer_norm %sum, %gamma, %beta {epsilon = 1.0e-05}
  return %y
}
