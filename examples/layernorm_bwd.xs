// LayerNorm backward over the last axis (N = 768, epsilon 1e-5), with both row
// reductions (for dx) and column reductions (dgamma, dbeta over the rows):
//   xhat = (x - mean) * rstd,  rstd = rsqrt(var + eps)
//   dgamma = sum_rows(dy * xhat),  dbeta = sum_rows(dy)
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat)),  g = dy * gamma
// Perf shape: R = 16384.
func @layernorm_bwd(%dy: f32[R, 768], %x: f32[R, 768], %gamma: f32[768])
    -> (dx: f32[R, 768], dgamma: f32[768], dbeta: f32[768]) {
  %inv_n = constant {value = 0.0013020833333333333} : f32[R]
  %eps = constant {value = 1.0e-05} : f32[R]
  %sum_x = reduce_sum %x {dims = [1]}
  %mean = mul %sum_x, %inv_n
  %mean_b = broadcast %mean {dims = [0]} : f32[R, 768]
  %xc = sub %x, %mean_b
  %xc2 = mul %xc, %xc
  %sum_xc2 = reduce_sum %xc2 {dims = [1]}
  %var = mul %sum_xc2, %inv_n
  %var_eps = add %var, %eps
  %rstd = rsqrt %var_eps
  %rstd_b = broadcast %rstd {dims = [0]} : f32[R, 768]
  %xhat = mul %xc, %rstd_b
  %dy_xhat = mul %dy, %xhat
  %dgamma = reduce_sum %dy_xhat {dims = [0]}
  %dbeta = reduce_sum %dy {dims = [0]}
  %gamma_b = broadcast %gamma {dims = [1]} : f32[R, 768]
  %g = mul %dy, %gamma_b
  %sum_g = reduce_sum %g {dims = [1]}
  %mean_g = mul %sum_g, %inv_n
  %g_xhat = mul %g, %xhat
  %sum_g_xhat = reduce_sum %g_xhat {dims = [1]}
  %mean_g_xhat = mul %sum_g_xhat, %inv_n
  %mean_g_b = broadcast %mean_g {dims = [0]} : f32[R, 768]
  %mean_g_xhat_b = broadcast %mean_g_xhat {dims = [0]} : f32[R, 768]
  %centered = sub %g, %mean_g_b
  %proj = mul %xhat, %mean_g_xhat_b
  %inner = sub %centered, %proj
  %dx = mul %rstd_b, %inner
  return %dx, %dgamma, %dbeta
}
