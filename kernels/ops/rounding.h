// Rounding to integral values: floats round in their compute type (exact, so no second rounding);
// integers are already integral and pass through. round is half to even. frac is floats only.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"

namespace ingot {

template <typename Derived>
struct RoundingMath {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      return static_cast<T>(Derived::f(static_cast<opmath_t<T>>(a)));
    } else {
      return a;
    }
  }
};

struct floor_functor : RoundingMath<floor_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::floor(x);
  }
};
REGISTER_FLOAT_UNARY_OP(floor);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(floor);

struct ceil_functor : RoundingMath<ceil_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::ceil(x);
  }
};
REGISTER_FLOAT_UNARY_OP(ceil);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(ceil);

struct trunc_functor : RoundingMath<trunc_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::trunc(x);
  }
};
REGISTER_FLOAT_UNARY_OP(trunc);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(trunc);

struct round_functor : RoundingMath<round_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::rint(x);
  }
  using RoundingMath<round_functor>::operator();

  // round(x, decimals) as PyTorch: rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d for d < 0,
  // in the compute type (floats only: the stub runs this only for decimals != 0).
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T decimals) const {
    using M = opmath_t<T>;
    const M x = static_cast<M>(a), d = static_cast<M>(decimals);
    const M scale = precise::pow(M(10), precise::fabs(d));
    return static_cast<T>(d > M(0) ? precise::rint(x * scale) / scale : precise::rint(x / scale) * scale);
  }
};
REGISTER_FLOAT_UNARY_OP(round);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(round);
REGISTER_FLOAT_UNARY_PARAM_OP(round);

// x - trunc(x): keeps the sign of x (frac(-0.5) == -0.5), NaN for infinities.
struct frac_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a) const {
    const opmath_t<T> x = static_cast<opmath_t<T>>(a);
    return static_cast<T>(x - precise::trunc(x));
  }
};
REGISTER_FLOAT_UNARY_OP(frac);

}  // namespace ingot
