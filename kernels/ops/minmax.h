// Elementwise maximum/minimum. maximum and minimum propagate NaN; fmax and fmin ignore a NaN
// operand (NaN only when both are). Written out rather than calling fmax/fmin so every backend
// agrees on zeros: +0.0 counts as greater than -0.0 (IEEE 754-2019 maximum/minimum).
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"

namespace ingot {

namespace minmax_detail {
// The larger (Max) or smaller of two non-NaN values, with -0.0 < +0.0.
template <bool Max, typename M>
INGOT_INLINE M pick(M a, M b) {
  if (a == b) {
    const bool a_neg = precise::copysign(M(1), a) < M(0);
    return (a_neg == Max) ? b : a;
  }
  return (a > b) == Max ? a : b;
}

template <bool Max, bool PropagateNan, typename T>
INGOT_INLINE T apply(T a, T b) {
  if constexpr (is_same_v<T, bool>) {
    return Max ? (a || b) : (a && b);
  } else if constexpr (is_floating_point_v<T>) {
    using M = opmath_t<T>;
    const M x = static_cast<M>(a), y = static_cast<M>(b);
    if (is_nan(x) || is_nan(y)) return static_cast<T>(PropagateNan ? x + y : is_nan(x) ? y : x);
    return static_cast<T>(pick<Max>(x, y));
  } else {
    return (a > b) == Max ? a : b;
  }
}
}  // namespace minmax_detail

struct maximum_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<true, true>(a, b);
  }
};
REGISTER_BINARY_OP(maximum);

struct minimum_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<false, true>(a, b);
  }
};
REGISTER_BINARY_OP(minimum);

struct fmax_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<true, false>(a, b);
  }
};
REGISTER_BINARY_OP(fmax);

struct fmin_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<false, false>(a, b);
  }
};
REGISTER_BINARY_OP(fmin);

}  // namespace ingot
