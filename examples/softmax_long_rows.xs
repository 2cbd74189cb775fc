// Row softmax over few very long rows (AStitch's Transformer case).
// Perf: R = 64, C = 30000.
func @softmax_long_rows(%x: f32[R, C]) -> (y: f32[R, C]) {
  %y = softmax %x {axis = 1}
  return %y
}
