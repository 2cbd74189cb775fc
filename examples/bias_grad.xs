// Bias gradient: a column sum over the rows. Perf shape: R = 65536.
func @bias_grad(%dy: f32[R, 1024]) -> (db: f32[1024]) {
  %db = reduce_sum %dy {dims = [0]}
  return %db
}
