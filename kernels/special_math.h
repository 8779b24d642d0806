// Special functions that neither the C math library nor CUDA's provides under one name, written
// once for every backend (DESIGN.md §4) in the portable subset: erfinv and digamma. They take and
// return a compute type (float or double); callers round once to the storage dtype.
#pragma once

#include "kernels/precise_math.h"

namespace ingot {
namespace special {

inline constexpr double kPi = 3.14159265358979323846;

// Inverse error function on [-1, 1]: Winitzki's closed form (relative error < 2e-3) refined by
// three Halley steps on erf(x) = |y|, which converge cubically to erf's own accuracy. Past 0.5 the
// residual is taken as (1 - |y|) - erfc(x): 1 - |y| is exact there, so the tail keeps its digits.
template <typename M>
INGOT_INLINE M erfinv(M y) {
  if (is_nan(y) || y < M(-1) || y > M(1)) return quiet_nan<M>();
  if (y == M(1) || y == M(-1)) return precise::copysign(infinity<M>(), y);
  if (y == M(0)) return y;
  const M a = precise::fabs(y);
  const M l = precise::log((M(1) - a) * (M(1) + a));  // log(1 - y^2) without cancelling in 1 - y^2
  const M k = M(2) / (M(kPi) * M(0.147)) + l / M(2);
  M x = precise::sqrt(precise::sqrt(k * k - l / M(0.147)) - k);
  const M two_over_sqrt_pi = M(1.12837916709551257390);
  for (int i = 0; i < 3; ++i) {
    const M f = a <= M(0.5) ? precise::erf(x) - a : (M(1) - a) - precise::erfc(x);
    const M df = two_over_sqrt_pi * precise::exp(-x * x);
    x -= f / (df + x * f);  // Halley: f'' = -2x f'
  }
  return precise::copysign(x, y);
}

// Digamma (psi), the logarithmic derivative of the gamma function. As PyTorch: psi(+-0) = -+inf,
// NaN at the negative integers. Negative x reflect (psi(x) = psi(1 - x) - pi / tan(pi x), the
// tangent taken of x minus its nearest integer, which is exact, so neither large |x| nor tiny x
// loses digits); x < 10 steps up with psi(x) = psi(x + 1) - 1 / x; then the asymptotic series.
template <typename M>
INGOT_INLINE M digamma(M x) {
  if (x == M(0)) return precise::copysign(infinity<M>(), -x);
  if (is_nan(x) || x == -infinity<M>()) return quiet_nan<M>();
  if (x == infinity<M>()) return x;
  M result = M(0);
  if (x < M(0)) {
    const M nearest = precise::rint(x);
    if (x == nearest) return quiet_nan<M>();
    result = -M(kPi) / precise::tan(M(kPi) * (x - nearest));
    x = M(1) - x;
  }
  while (x < M(10)) {
    result -= M(1) / x;
    x += M(1);
  }
  const M z = M(1) / (x * x);
  const M series =
      z * (M(1.0 / 12) -
           z * (M(1.0 / 120) -
                z * (M(1.0 / 252) - z * (M(1.0 / 240) - z * (M(1.0 / 132) - z * (M(691.0 / 32760) - z / M(12)))))));
  return result + precise::log(x) - M(0.5) / x - series;
}

}  // namespace special
}  // namespace ingot
