// Row softmax over very many short rows (AStitch's DIEN case). Perf: R = 750000.
func @softmax_small_rows(%x: f32[R, 32]) -> (y: f32[R, 32]) {
  %y = softmax %x {axis = 1}
  return %y
}
