#ifndef XSTITCH_TRANSFORMS_STRENGTHREDUCE_H
#define XSTITCH_TRANSFORMS_STRENGTHREDUCE_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Float ops become cheaper ones computing the same value up to rounding, as
/// exporters write them:
///   - pow by a splat-constant exponent (x.pow(2), x ** 3: GELU's tanh form,
///     variances, RMSNorm):
///       x^0 -> 1      x^1 -> x        x^2 -> x*x      x^3 -> x*x*x
///       x^4 -> (x*x)*(x*x)            x^0.5 -> sqrt(x) x^-0.5 -> rsqrt(x)
///       x^-1 -> reciprocal(x)         x^-2 -> reciprocal(x*x)
///     Products round once per multiplication (x^3 and x^4 may differ from a
///     correctly rounded pow by an ulp); sqrt and rsqrt differ from pow only
///     at -0 and -inf (pow(-0, 0.5) is +0, sqrt(-0) is -0; pow(-inf, 0.5) is
///     +inf, sqrt(-inf) is NaN), as in TorchInductor's and XLA's lowering of
///     the same exponents. Other exponents and integer pow stay.
///   - division by a square root, directly or through a broadcast (a
///     normalization's a / sqrt(var + eps) over a row): a / sqrt(b) ->
///     a * rsqrt(b), reciprocal(sqrt(b)) -> rsqrt(b); one rsqrt per row
///     instead of a division per element.
///   - division by a splat power of two (attention's scores / 8): a * (1/c),
///     exact, where c and 1/c are normal numbers of the type.
/// Precondition: types known. Returns whether the function changed.
absl::StatusOr<bool> runStrengthReduce(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_STRENGTHREDUCE_H
