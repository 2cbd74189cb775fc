// BERT FFN activation: y = gelu(x + b), erf form. Perf shape: R = 32*128.
func @bias_gelu(%x: f32[R, 3072], %b: f32[3072]) -> (y: f32[R, 3072]) {
  %b_b = broadcast %b {dims = [1]} : f32[R, 3072]
  %h = add %x, %b_b
  %y = gelu %h {approximate = none}
  return %y
}
