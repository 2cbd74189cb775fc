// One BERT-base encoder layer (B sequences of S tokens, hidden 768, 12 heads
// of 64, FFN 3072): the matrix products are `dot` library ops, and between
// them every memory-intensive op: bias adds, head split and merge
// transposes, scale + mask + softmax, GELU, two skip-LayerNorms.
// Perf shape: B = 32, S = 128.
func @bert_layer(%x: f32[B, S, 768], %mask: f32[B, 1, 1, S],
                 %wq: f32[768, 768], %bq: f32[768], %wk: f32[768, 768], %bk: f32[768],
                 %wv: f32[768, 768], %bv: f32[768], %wo: f32[768, 768], %bo: f32[768],
                 %g1: f32[768], %be1: f32[768], %w1: f32[768, 3072], %b1: f32[3072],
                 %w2: f32[3072, 768], %b2: f32[768], %g2: f32[768], %be2: f32[768])
    -> (y: f32[B, S, 768]) {
  %x2 = reshape %x : f32[B*S, 768]
  // Q, K, V projections, bias, split into heads.
  %q0 = dot %x2, %wq
  %k0 = dot %x2, %wk
  %v0 = dot %x2, %wv
  %bq_b = broadcast %bq {dims = [1]} : f32[B*S, 768]
  %q1 = add %q0, %bq_b
  %q2 = reshape %q1 : f32[B, S, 12, 64]
  %q = transpose %q2 {perm = [0, 2, 1, 3]}
  %bk_b = broadcast %bk {dims = [1]} : f32[B*S, 768]
  %k1 = add %k0, %bk_b
  %k2 = reshape %k1 : f32[B, S, 12, 64]
  %kt = transpose %k2 {perm = [0, 2, 3, 1]}
  %bv_b = broadcast %bv {dims = [1]} : f32[B*S, 768]
  %v1 = add %v0, %bv_b
  %v2 = reshape %v1 : f32[B, S, 12, 64]
  %v = transpose %v2 {perm = [0, 2, 1, 3]}
  // Scores, scale + mask + softmax, context.
  %scores = dot %q, %kt
  %scale = constant {value = 0.125} : f32[B, 12, S, S]
  %scaled = mul %scores, %scale
  %one = constant {value = 1.0} : f32[B, 1, 1, S]
  %keep = sub %one, %mask
  %big = constant {value = -10000.0} : f32[B, 1, 1, S]
  %maskbias = mul %keep, %big
  %maskbias_b = broadcast %maskbias {dims = [0, 1, 2, 3]} : f32[B, 12, S, S]
  %logits = add %scaled, %maskbias_b
  %probs = softmax %logits {axis = 3}
  %ctx = dot %probs, %v
  // Merge heads, output projection, bias + residual + LayerNorm.
  %ctxt = transpose %ctx {perm = [0, 2, 1, 3]}
  %ctx2 = reshape %ctxt : f32[B*S, 768]
  %o0 = dot %ctx2, %wo
  %bo_b = broadcast %bo {dims = [1]} : f32[B*S, 768]
  %o1 = add %o0, %bo_b
  %o2 = reshape %o1 : f32[B, S, 768]
  %r1 = add %o2, %x
  %h1 = layer_norm %r1, %g1, %be1 {epsilon = 1.0e-12}
  // FFN: bias + GELU, then bias + residual + LayerNorm.
  %h2 = reshape %h1 : f32[B*S, 768]
  %f0 = dot %h2, %w1
  %b1_b = broadcast %b1 {dims = [1]} : f32[B*S, 3072]
  %f1 = add %f0, %b1_b
  %f2 = gelu %f1 {approximate = none}
  %f3 = dot %f2, %w2
  %b2_b = broadcast %b2 {dims = [1]} : f32[B*S, 768]
  %f4 = add %f3, %b2_b
  %f5 = reshape %f4 : f32[B, S, 768]
  %r2 = add %f5, %h1
  %y = layer_norm %r2, %g2, %be2 {epsilon = 1.0e-12}
  return %y
}
