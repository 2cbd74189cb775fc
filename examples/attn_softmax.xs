// Attention probabilities: y = softmax(s * 0.125 + (1 - mask) * -10000) over
// the keys. Perf shape: B = 8, S = 128.
func @attn_softmax(%s: f32[B, 12, S, S], %mask: f32[B, 1, 1, S]) -> (y: f32[B, 12, S, S]) {
  %scale = constant {value = 0.125} : f32[B, 12, S, S]
  %scaled = mul %s, %scale
  %one = constant {value = 1.0} : f32[B, 1, 1, S]
  %keep = sub %one, %mask
  %big = constant {value = -10000.0} : f32[B, 1, 1, S]
  %bias = mul %keep, %big
  %bias_b = broadcast %bias {dims = [0, 1, 2, 3]} : f32[B, 12, S, S]
  %logits = add %scaled, %bias_b
  %y = softmax %logits {axis = 3}
  return %y
}
