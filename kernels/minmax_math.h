// The larger or smaller of two values, for maximum/minimum/fmax/fmin and clamp. Written out rather
// than calling fmax/fmin so every backend agrees on zeros: +0.0 counts as greater than -0.0 (IEEE
// 754-2019 maximum/minimum). Helpers only: no kernel registrations, so any ops header may include it.
#pragma once

#include "kernels/precise_math.h"

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

}  // namespace ingot
