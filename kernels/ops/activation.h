// Activation functions. relu takes integers too; the others are float only, computed in opmath_t
// and rounded once.
#pragma once

#include "kernels/float_math.h"
#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/special_math.h"

namespace ingot {

// max(x, 0) with NaN propagated; -0.0 gives +0.0.
struct relu_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      const M x = static_cast<M>(a);
      return static_cast<T>(x > M(0) || is_nan(x) ? x : M(0));
    } else {
      return a > T(0) ? a : T(0);
    }
  }
};
REGISTER_FLOAT_UNARY_OP(relu);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(relu);

// x * sigmoid(x): x / (1 + exp(-x)) for x >= 0, x * t / (1 + t) with t = exp(x) below, so that
// large negative x gives a tiny negative result, not -0.0 from x / inf; silu(-inf) is -0.0.
struct silu_functor : FloatMath<silu_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    if (x >= M(0) || is_nan(x)) return x / (M(1) + precise::exp(-x));
    if (x == -infinity<M>()) return -M(0);
    const M t = precise::exp(x);
    return x * t / (M(1) + t);
  }
};
REGISTER_FLOAT_UNARY_OP(silu);

// x * tanh(softplus(x)); softplus(x) = log1p(exp(x)), or x itself past 20 where log1p(exp(x)) == x
// in every float type. mish(-inf) is -0.0 (the limit), not -inf * 0.
struct mish_functor : FloatMath<mish_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    if (x == -infinity<M>()) return -M(0);
    const M softplus = x > M(20) ? x : precise::log1p(precise::exp(x));
    return x * precise::tanh(softplus);
  }
};
REGISTER_FLOAT_UNARY_OP(mish);

// Exact GELU: x * Phi(x) = x / 2 * erfc(-x / sqrt(2)); erfc keeps the tiny tail for negative x
// that 1 + erf(x / sqrt(2)) would cancel to 0. In the tail erfc magnifies the rounding of its
// argument ~2z^2 times, so z = x / sqrt(2) is carried as hi + lo (an fma recovers the product's
// rounding error) and erfc is corrected to first order: erfc(z + d) ~ erfc(z) - 2/sqrt(pi) e^-z^2 d.
struct gelu_functor : FloatMath<gelu_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    if (!is_finite(x)) return x == -infinity<M>() ? -M(0) : x;
    // 1/sqrt(2) split into the compute type's nearest value and the rest.
    const M c_hi = M(0.70710678118654752440);
    const M c_lo = is_same_v<M, double> ? M(-4.833646656726457e-17) : M(1.210161710447897e-08);
    const M z_hi = -x * c_hi;
    const M z_lo = precise::fma(-x, c_hi, -z_hi) - x * c_lo;
    const M tail = M(1.12837916709551257390) * precise::exp(-z_hi * z_hi) * z_lo;
    return x * M(0.5) * (precise::erfc(z_hi) - tail);
  }
};
REGISTER_FLOAT_UNARY_OP(gelu);

// gelu(approximate="tanh"): x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as
// x * sigmoid(2u) so the negative tail does not cancel to 0.
struct gelu_tanh_functor : FloatMath<gelu_tanh_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    if (!is_finite(x)) return x == -infinity<M>() ? -M(0) : x;
    const M u2 = M(2 * 0.79788456080286535588) * (x + M(0.044715) * x * x * x);
    if (u2 >= M(0)) return x / (M(1) + precise::exp(-u2));
    const M e = precise::exp(u2);
    return x * e / (M(1) + e);
  }
};
REGISTER_FLOAT_UNARY_OP(gelu_tanh);

// log1p(exp(beta * x)) / beta, or x itself where beta * x > threshold (PyTorch's linear regime).
// beta and threshold arrive as 0-dim operands in the compute type (iterator unary_scalar_operands).
struct softplus_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T b, T t) const {
    using M = opmath_t<T>;
    const M x = static_cast<M>(a), beta = static_cast<M>(b), threshold = static_cast<M>(t);
    const M z = x * beta;
    return static_cast<T>(z > threshold ? x : precise::log1p(precise::exp(z)) / beta);
  }
};
REGISTER_FLOAT_TERNARY_OP(softplus);

}  // namespace ingot
