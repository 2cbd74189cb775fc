// BERT-base LayerNorm: y = LayerNorm(x) * gamma + beta over the last axis,
// epsilon 1e-5. Rows are dynamic; the perf shape is R = 32*128 = 4096.
func @layernorm(%x: f32[R, 768], %gamma: f32[768], %beta: f32[768]) -> (y: f32[R, 768]) {
  %y = layer_norm %x, %gamma, %beta {epsilon = 1.0e-05}
  return %y
}
