// GPT-2 activation written out: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// Perf shape: R = 4096.
func @gelu_tanh(%x: f32[R, 3072]) -> (y: f32[R, 3072]) {
  %half = constant {value = 0.5} : f32[R, 3072]
  %one = constant {value = 1.0} : f32[R, 3072]
  %c = constant {value = 0.044715} : f32[R, 3072]
  %k = constant {value = 0.7978845608028654} : f32[R, 3072]
  %x2 = mul %x, %x
  %x3 = mul %x2, %x
  %cx3 = mul %c, %x3
  %inner = add %x, %cx3
  %arg = mul %k, %inner
  %t = tanh %arg
  %onept = add %one, %t
  %hx = mul %half, %x
  %y = mul %hx, %onept
  return %y
}
