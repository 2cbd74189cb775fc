#ifndef XSTITCH_TRANSFORMS_EXPANDPOWERS_H
#define XSTITCH_TRANSFORMS_EXPANDPOWERS_H

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

/// Float `pow` by a splat-constant exponent becomes cheaper ops, as exporters
/// write x.pow(2) and x ** 3 (GELU's tanh form, variances, RMSNorm):
///   x^0 -> 1      x^1 -> x        x^2 -> x*x      x^3 -> x*x*x
///   x^4 -> (x*x)*(x*x)            x^0.5 -> sqrt(x) x^-0.5 -> rsqrt(x)
///   x^-1 -> reciprocal(x)         x^-2 -> reciprocal(x*x)
/// Products round once per multiplication (x^3 and x^4 may differ from a
/// correctly rounded pow by an ulp); sqrt and rsqrt differ from pow only at
/// -0 and -inf (pow(-0, 0.5) is +0, sqrt(-0) is -0; pow(-inf, 0.5) is +inf,
/// sqrt(-inf) is NaN), as in TorchInductor's and XLA's lowering of the same
/// exponents. Other exponents and integer pow stay. Precondition: types
/// known. Returns whether the function changed.
absl::StatusOr<bool> runExpandPowers(Function &function);

} // namespace xs

#endif // XSTITCH_TRANSFORMS_EXPANDPOWERS_H
