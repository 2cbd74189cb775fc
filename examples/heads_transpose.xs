// Split BERT-base's hidden size into 12 heads of 64 and scale:
// [B, S, 768] -> [B, 12, S, 64] * 0.125. Perf shape: B = 32, S = 128.
func @heads_transpose(%x: f32[B, S, 768]) -> (y: f32[B, 12, S, 64]) {
  %heads = reshape %x : f32[B, S, 12, 64]
  %t = transpose %heads {perm = [0, 2, 1, 3]}
  %scale = constant {value = 0.125} : f32[B, 12, S, 64]
  %y = mul %t, %scale
  return %y
}
